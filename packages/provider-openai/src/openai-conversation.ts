import { openaiConversationAdapter } from './openai-conversation-adapter.js';
import { OpenAIConversationBase } from './openai-conversation-base.js';
import { openaiChatNoteWire } from './openai-conversation-note.js';
import type { OpenAIChatConversationTypes, OpenAIConversationSettings } from './openai-conversation-types.js';

/**
 * A Chat Completions conversation that stays inside the context window. It holds the full history in the
 * SDK's message shape and a working context; before each request it compacts when the trigger fires, sends
 * with the real SDK client, appends the answer and records the reported prompt tokens (cached ones are part
 * of them), so the next count is exact for what was sent. After a `context_length_exceeded` refusal it
 * compacts with the `overflow` trigger and retries, as the one overflow policy of `@compaction/agent-loop`
 * says; a refusal of the last retry throws `OverflowRetriesExhaustedError` (a `ContextOverflowError`). Other
 * SDK errors are thrown unchanged.
 *
 * Messages given to it are copied, never changed; the messages it holds are frozen. Tool results may be
 * added a few at a time; a user message is accepted once every call is answered.
 */
export class OpenAIConversation extends OpenAIConversationBase<OpenAIChatConversationTypes> {
  constructor(settings: OpenAIConversationSettings) {
    const request = settings.request;
    super(
      settings,
      request.model,
      request.max_completion_tokens ?? request.max_tokens ?? undefined,
      openaiConversationAdapter(settings),
      openaiChatNoteWire,
    );
    for (const message of settings.messages ?? []) this.append([message]);
  }
}

/** Creates an {@link OpenAIConversation}. Throws `InvalidOptionsError` for invalid compaction settings. */
export function createOpenAIConversation(settings: OpenAIConversationSettings): OpenAIConversation {
  return new OpenAIConversation(settings);
}

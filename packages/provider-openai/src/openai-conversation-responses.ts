import { OpenAIConversationBase } from './openai-conversation-base.js';
import { openaiResponsesNoteWire } from './openai-conversation-note.js';
import { openaiResponsesConversationAdapter } from './openai-responses-conversation-adapter.js';
import type {
  OpenAIResponsesConversationSettings,
  OpenAIResponsesConversationTypes,
} from './openai-responses-conversation-types.js';
import { refuseStoredContext } from './openai-responses-stored-context.js';

/**
 * A Responses API conversation that stays inside the context window: the same loop as
 * {@link OpenAIConversation} over `responses.create`, holding the history as input items. The output items of
 * each response (messages, function calls, reasoning) are appended as they came, so they go back verbatim;
 * reasoning models need `store: false` with `include: ['reasoning.encrypted_content']`, or a stored
 * response, for their reasoning items to be accepted back. A failed response whose error is
 * `context_length_exceeded` counts as an overflow refusal; any other failed response throws `ProviderError`.
 */
export class OpenAIResponsesConversation extends OpenAIConversationBase<OpenAIResponsesConversationTypes> {
  constructor(settings: OpenAIResponsesConversationSettings) {
    const request = settings.request;
    refuseStoredContext(request, 'request');
    super(
      settings,
      request.model ?? '',
      request.max_output_tokens ?? undefined,
      openaiResponsesConversationAdapter(settings),
      openaiResponsesNoteWire,
    );
    // One group: an assistant run of several items becomes one core message, as in a single conversion.
    this.append(settings.input ?? []);
  }
}

/**
 * Creates an {@link OpenAIResponsesConversation}. Throws `InvalidOptionsError` for invalid compaction settings
 * and for a request with `previous_response_id` or `conversation`.
 */
export function createOpenAIResponsesConversation(
  settings: OpenAIResponsesConversationSettings,
): OpenAIResponsesConversation {
  return new OpenAIResponsesConversation(settings);
}

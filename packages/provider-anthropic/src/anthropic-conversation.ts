import {
  AgentConversation,
  type ConversationRunOptions,
  type ConversationSendOptions,
} from '@compaction/agent-loop';
import { frozenCopy } from '@compaction/provider-utils';
import {
  type AnthropicConversationTypes,
  anthropicConversationAdapter,
} from './anthropic-conversation-adapter.js';
import {
  type AnthropicConversationRequest,
  type AnthropicConversationSettings,
  resolveAnthropicConversationCompactor,
} from './anthropic-conversation-settings.js';
import { fromAnthropicRequest } from './from-anthropic-request.js';

/** Options of one {@link AnthropicConversation.send}: `request` fields (`max_tokens`, `tool_choice`...) and a signal. */
export type AnthropicSendOptions = ConversationSendOptions<AnthropicConversationRequest>;

/**
 * Options of {@link AnthropicConversation.run}. A tool that throws becomes an error result (`is_error: true`)
 * with the error's message.
 */
export type AnthropicRunOptions = ConversationRunOptions<AnthropicConversationTypes>;

/**
 * An Anthropic Messages conversation that stays inside the context window. It holds the full history in the
 * SDK's own shape and a working context (what the next request carries). Before each request it compacts the
 * context when the compactor's trigger fires; it sends the request with the real SDK client, appends the
 * answer, and records the reported input tokens (cache reads and writes included) so the next count is exact
 * for what was sent. When the API refuses a request as too long, it compacts with the `overflow` trigger and
 * retries, as the one overflow policy of `@compaction/agent-loop` says; a refusal of the last retry throws
 * `OverflowRetriesExhaustedError` (a `ContextOverflowError`). Other SDK errors are thrown unchanged.
 *
 * Messages given to it are copied, never changed; the messages it holds are frozen. A user turn must answer
 * every tool call of the answer before it.
 */
export class AnthropicConversation extends AgentConversation<AnthropicConversationTypes> {
  constructor(settings: AnthropicConversationSettings) {
    const system = settings.system === undefined ? undefined : frozenCopy(settings.system);
    super({
      compactor: resolveAnthropicConversationCompactor(settings),
      sessionId: settings.sessionId,
      adapter: anthropicConversationAdapter(settings),
      ...(settings.compactTool === undefined ? {} : { compactTool: settings.compactTool }),
      ...(settings.beforeCompaction === undefined ? {} : { beforeCompaction: settings.beforeCompaction }),
      ...(system === undefined ? {} : { preamble: fromAnthropicRequest({ system, messages: [] }) }),
    });
    for (const message of settings.messages ?? []) this.append([message]);
  }
}

/** Creates an {@link AnthropicConversation}. Throws `InvalidOptionsError` for invalid compaction settings. */
export function createAnthropicConversation(settings: AnthropicConversationSettings): AnthropicConversation {
  return new AnthropicConversation(settings);
}

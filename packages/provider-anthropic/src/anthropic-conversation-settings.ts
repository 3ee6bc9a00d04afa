import type Anthropic from '@anthropic-ai/sdk';
import {
  type ConversationCompaction,
  type NoteBeforeCompaction,
  resolveConversationCompactor,
} from '@compaction/agent-loop';
import { type Compactor, createFastEstimator } from '@compaction/core';
import { anthropicProfile } from '@compaction/token-estimator';
import type { AnthropicContextManagement } from './anthropic-context-management.js';
import { defaultAnthropicModelLimits, findAnthropicModel } from './anthropic-model-limits.js';
import type { ToAnthropicRequestOptions } from './to-anthropic-request.js';

/**
 * The part of the `@anthropic-ai/sdk` client a conversation uses: `messages.create` (and `messages.stream` when
 * the conversation streams). An `Anthropic` instance satisfies it, and so does any object with the same
 * methods (a proxy, a wrapper with logging).
 */
export interface AnthropicConversationClient {
  messages: {
    create(body: never, options?: never): PromiseLike<unknown>;
    stream?(body: never, options?: never): { finalMessage(): PromiseLike<unknown> };
  };
  /** The beta Messages API, used when the conversation has `contextManagement`. */
  beta?: { messages: { create(body: never, options?: never): PromiseLike<unknown> } };
}

/** What every request of a conversation carries besides the conversation itself: model, `max_tokens`, tools... */
export type AnthropicConversationRequest = Omit<
  Anthropic.MessageCreateParamsNonStreaming,
  'messages' | 'system' | 'stream'
>;

/**
 * Settings of the compactor a conversation creates for itself: those of core's `createCompactor`, with the
 * budget optional. Without a budget, the context window is the model's (from the built-in table) and the
 * request's `max_tokens` is reserved for the answer; without a counter or estimator, tokens are estimated with
 * core's Anthropic profile.
 */
export type AnthropicConversationCompaction = ConversationCompaction;

/** Settings of {@link createAnthropicConversation}. */
export interface AnthropicConversationSettings {
  /** The SDK client the requests go through (an `Anthropic` instance). */
  client: AnthropicConversationClient;
  /** Sent with every request: `model`, `max_tokens`, `tools`, `temperature`... */
  request: AnthropicConversationRequest;
  /** The system prompt. Kept verbatim by every compaction. */
  system?: string | Anthropic.TextBlockParam[];
  /** Where the conversation starts. Copied: the array and its messages are never changed. */
  messages?: readonly Anthropic.MessageParam[];
  /** A compactor to use (share one to share its counter, store and listeners). Give this or `compaction`. */
  compactor?: Compactor;
  /** Settings of a compactor created for this conversation. Give this or `compactor`. */
  compaction?: AnthropicConversationCompaction;
  /** The session compactions are recorded under. Default `default`. */
  sessionId?: string;
  /** Passed to `toAnthropicRequest`: the user turn put first when compaction left the assistant first. */
  firstUserText?: ToAnthropicRequestOptions['firstUserText'];
  /**
   * Anthropic's own context management (tool-result and thinking clearing, server-side compaction), sent with
   * every request through `client.beta.messages` with the beta flags it needs. Local compaction still runs at
   * the compactor's trigger: set that above the server's so that the server acts first.
   */
  contextManagement?: AnthropicContextManagement;
  /**
   * Sends each request with `messages.stream` and reads its final message: the SDK refuses requests without a
   * stream that it expects to take longer than ten minutes (a large `max_tokens`). A refusal as too long,
   * before the stream or as its first event, is recovered as any other. Not with `contextManagement`.
   */
  stream?: boolean;
  /**
   * Offers the model a `compact` tool (optional `instructions`: what to keep, what phase ended): the
   * conversation answers the call and, before the next request, compacts with those instructions, even under
   * the target (a forced manual compaction). Default false.
   */
  compactTool?: boolean;
  /**
   * Before each automatic compaction, one extra request asks the model for a note of what it must keep
   * (`max_tokens` set to `maximumTokens`, `tool_choice: none`, aborted after `timeoutMs`); the note joins the
   * history as a pinned user turn. `true` for the defaults; a failure is a `note` event. Off by default.
   */
  beforeCompaction?: boolean | NoteBeforeCompaction;
}

/** The compactor of a conversation: the one given, or one created from `compaction`. */
export function resolveAnthropicConversationCompactor(settings: AnthropicConversationSettings): Compactor {
  return resolveConversationCompactor({
    subject: 'Anthropic conversation',
    compactor: settings.compactor,
    compaction: settings.compaction,
    contextWindow: (findAnthropicModel(settings.request.model) ?? defaultAnthropicModelLimits).contextWindow,
    reservedOutputTokens: settings.request.max_tokens,
    defaultEstimator: () =>
      createFastEstimator({
        profile: anthropicProfile,
        media: { provider: 'anthropic', model: settings.request.model },
      }),
  });
}

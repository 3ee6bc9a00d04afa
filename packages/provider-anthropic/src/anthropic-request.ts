import type Anthropic from '@anthropic-ai/sdk';
import type { JSONObject, JSONValue } from '@compaction/core';

/**
 * A content block of the Anthropic Messages API, as plain JSON. Known blocks (`text`, `image`, `document`,
 * `tool_use`, `tool_result`, `thinking`, `redacted_thinking`) are converted part by part; any other block
 * (server tools, search results...) is carried through unchanged. Structurally compatible with the SDK's
 * `ContentBlockParam`.
 */
export interface AnthropicContentBlock {
  type: string;
  [field: string]: JSONValue | undefined;
}

/** A text block, as the `system` parameter takes it. */
export interface AnthropicTextBlock extends AnthropicContentBlock {
  type: 'text';
  text: string;
}

/**
 * One message of a Messages API request (the SDK's `MessageParam`): a user or assistant turn, or a system
 * message standing between turns. Fields other than `role` and `content` are carried through unchanged.
 */
export interface AnthropicMessage {
  role: 'user' | 'assistant' | 'system';
  content: string | AnthropicContentBlock[];
  [field: string]: JSONValue | undefined;
}

/**
 * The conversation part of a Messages API request: what {@link fromAnthropicRequest} reads and
 * {@link toAnthropicRequest} writes. Spread it into `client.messages.create({ model, max_tokens, ...request })`.
 */
export interface AnthropicRequest {
  system?: string | AnthropicTextBlock[];
  messages: AnthropicMessage[];
}

/** Provider-specific fields kept in core `metadata.anthropic` so conversions are lossless. */
export type AnthropicMetadata = JSONObject;

/**
 * What {@link fromAnthropicRequest} accepts: any `{ system, messages }` shaped like a Messages request,
 * including the SDK's own `MessageCreateParams` (its extra fields are ignored).
 */
export interface AnthropicRequestInput {
  system?: string | ReadonlyArray<{ readonly type: string }>;
  messages: ReadonlyArray<{
    readonly role: string;
    readonly content: string | ReadonlyArray<{ readonly type: string }>;
  }>;
}

/**
 * What {@link toAnthropicRequest} returns, typed with the SDK's own types so it spreads straight into
 * `client.messages.create({ model, max_tokens, ...request })`.
 */
export interface AnthropicMessagesRequest {
  system?: string | Anthropic.TextBlockParam[];
  messages: Anthropic.MessageParam[];
}

import type { JSONObject } from '@compaction/core';
import { createSdkClient, type SdkClientSettings } from '@compaction/provider-utils';
import type { AnthropicMessagesRequest } from './anthropic-request.js';

/** Per-request options the adapter passes to the SDK. */
export interface AnthropicRequestOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** The body of a `messages.create` call the adapter makes (no tools, no streaming). */
export interface AnthropicCreateBody {
  model: string;
  max_tokens: number;
  system?: AnthropicMessagesRequest['system'];
  messages: AnthropicMessagesRequest['messages'];
  temperature?: number;
}

/** The body of a `messages.countTokens` call. */
export interface AnthropicCountTokensBody {
  model: string;
  tools?: JSONObject[];
  system?: AnthropicMessagesRequest['system'];
  messages: AnthropicMessagesRequest['messages'];
}

/** The part of a `messages.create` response the adapter reads. */
export interface AnthropicCreateResponse {
  content: Array<{ type: string; text?: string }>;
  stop_reason: string | null;
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens?: number | null;
    cache_creation_input_tokens?: number | null;
  };
}

/**
 * The part of the `@anthropic-ai/sdk` client the adapter uses: `messages.create` and `messages.countTokens`.
 * An `Anthropic` instance satisfies it, from any supported SDK version; so does any object with the same two
 * methods (a proxy, a wrapper with logging). The parameters are typed loosely on purpose: the SDK's own
 * request types differ between versions, and the adapter builds the bodies itself (see
 * {@link AnthropicCreateBody} and {@link AnthropicCountTokensBody}).
 */
export interface AnthropicClient {
  messages: {
    create(body: never, options?: never): PromiseLike<unknown>;
    countTokens(body: never, options?: never): PromiseLike<unknown>;
  };
}

/** Calls `messages.create` with the adapter's body. */
export function callCreate(
  client: AnthropicClient,
  body: AnthropicCreateBody,
  options: AnthropicRequestOptions,
): PromiseLike<AnthropicCreateResponse> {
  const create = client.messages.create as unknown as (
    body: AnthropicCreateBody,
    options: AnthropicRequestOptions,
  ) => PromiseLike<AnthropicCreateResponse>;
  return create.call(client.messages, body, options);
}

/** Calls `messages.countTokens` with the adapter's body. */
export function callCountTokens(
  client: AnthropicClient,
  body: AnthropicCountTokensBody,
  options: AnthropicRequestOptions,
): PromiseLike<{ input_tokens: number }> {
  const countTokens = client.messages.countTokens as unknown as (
    body: AnthropicCountTokensBody,
    options: AnthropicRequestOptions,
  ) => PromiseLike<{ input_tokens: number }>;
  return countTokens.call(client.messages, body, options);
}

/** How to build a client when none is injected. */
export interface AnthropicClientSettings extends SdkClientSettings {
  /** Default: the SDK's own (`ANTHROPIC_API_KEY`). */
  apiKey?: string;
  /** Default: the SDK's own (`https://api.anthropic.com`). */
  baseURL?: string;
}

/** Loads `@anthropic-ai/sdk` (a peer dependency) and builds a client from settings. */
export function createAnthropicClient(settings: AnthropicClientSettings): Promise<AnthropicClient> {
  const packageName = '@anthropic-ai/sdk';
  return createSdkClient({ packageName, load: () => import(packageName), settings });
}

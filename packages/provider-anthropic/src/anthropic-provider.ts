import type {
  CountTokensRequest,
  GenerateRequest,
  GenerateResult,
  JSONObject,
  Provider,
  TokenCount,
} from '@compaction/core';
import { type SdkProvider, type SdkProviderSettings, sdkProviderBase } from '@compaction/provider-utils';
import {
  type AnthropicClient,
  type AnthropicClientSettings,
  type AnthropicCreateResponse,
  callCountTokens,
  callCreate,
  createAnthropicClient,
} from './anthropic-client.js';
import { toAnthropicCompactionError } from './anthropic-error.js';
import { anthropicGenerateToolFields, generateToolChoiceDefault } from './anthropic-generate-tools.js';
import { type AnthropicModelId, anthropicModels, longContextBeta } from './anthropic-model-limits.js';
import { anthropicNativeCompaction, lazyBetaMessages } from './anthropic-native-compaction.js';
import { parseAnthropicContextOverflow } from './parse-anthropic-context-overflow.js';
import { toAnthropicRequest } from './to-anthropic-request.js';

/**
 * A {@link Provider} over the Anthropic Messages API. `nativeCompaction` is Anthropic's on-demand compaction
 * for the provider's model (see {@link anthropicNativeCompaction}), present when the client can make the call
 * (an injected client with `beta.messages.create`, or one built from the settings); the `native` strategy
 * chosen by name uses it.
 */
export type AnthropicProvider = SdkProvider<'anthropic'>;

/** Settings of {@link createAnthropicProvider}. The default `model` is `claude-sonnet-5-5`. */
export interface AnthropicProviderSettings
  extends AnthropicClientSettings,
    SdkProviderSettings<AnthropicModelId, AnthropicClient> {
  /**
   * Use the 1M-token window on models that offer it, by sending the `context-1m-2025-08-07` beta flag.
   * Default `false`.
   */
  longContext?: boolean;
  /**
   * Tool definitions your requests send. `countTokens` includes them, so counts match what the API bills for
   * the real request. `generate` sends them, with {@link AnthropicProviderSettings.toolChoice}, when the
   * conversation holds tool calls or results (the API refuses those without tools); without them such a
   * `generate` throws `InvalidMessagesError` and sends nothing. Default: none.
   */
  tools?: JSONObject[];
  /**
   * The `tool_choice` `generate` sends with `tools`. Default `{ type: 'none' }`: the answer is text, never a
   * tool call. Anthropic reads cached messages only for the `tool_choice` they were written with (tools and
   * system stay cached), so to read a conversation your agent sent from the cache, give what your agent sends,
   * or `null` when it sends none (the model may then call a tool instead of answering).
   */
  toolChoice?: JSONObject | null;
}

/**
 * Creates the Anthropic provider: `generate` through `messages.create` (a conversation with tool blocks is
 * sent with the `tools` and `toolChoice` settings), exact `countTokens` through `messages.countTokens`,
 * recognition of "prompt is too long" errors, and model limits from a built-in table. The client is injected or built from the settings on first use.
 */
export function createAnthropicProvider(settings: AnthropicProviderSettings = {}): AnthropicProvider {
  const base = sdkProviderBase('anthropic', settings, anthropicModels, () => createAnthropicClient(settings));
  const { modelId } = base.members;
  const { getClient } = base;
  const headers = settings.longContext === true ? { 'anthropic-beta': longContextBeta } : undefined;
  const requestOptions = (signal: AbortSignal | undefined) => ({
    ...(signal === undefined ? {} : { signal }),
    ...(headers === undefined ? {} : { headers }),
  });

  // An injected client without the beta Messages API cannot compact on the server: no member then.
  const injected = settings.client as { beta?: { messages?: { create?: unknown } } } | undefined;
  const nativeCompaction =
    injected !== undefined && typeof injected.beta?.messages?.create !== 'function'
      ? {}
      : {
          nativeCompaction: anthropicNativeCompaction({
            client: lazyBetaMessages(getClient),
            model: modelId,
            ...(settings.tools === undefined ? {} : { tools: settings.tools as never }),
          }),
        };

  return {
    ...base.members,
    ...nativeCompaction,
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      const { modelId: model, maxOutputTokens } = base.resolve(request);
      const conversation = toAnthropicRequest(request.messages);
      const body = {
        model,
        max_tokens: maxOutputTokens,
        ...conversation,
        ...anthropicGenerateToolFields(
          conversation,
          settings.tools,
          settings.toolChoice === undefined ? generateToolChoiceDefault : settings.toolChoice,
        ),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      };
      let response: AnthropicCreateResponse;
      try {
        response = await callCreate(await getClient(), body, requestOptions(request.abortSignal));
      } catch (error) {
        throw toAnthropicCompactionError(error, request.abortSignal);
      }
      return resultOf(response);
    },
    async countTokens(request: CountTokensRequest): Promise<TokenCount> {
      const source = 'anthropic:count_tokens';
      if (request.messages.length === 0) return { tokens: 0, accuracy: 'exact', source };
      const body = {
        model: request.modelId ?? modelId,
        ...toAnthropicRequest(request.messages),
        ...(settings.tools === undefined || settings.tools.length === 0 ? {} : { tools: settings.tools }),
      };
      try {
        const counted = await callCountTokens(await getClient(), body, requestOptions(undefined));
        return { tokens: counted.input_tokens, accuracy: 'exact', source };
      } catch (error) {
        throw toAnthropicCompactionError(error);
      }
    },
    parseContextOverflow: parseAnthropicContextOverflow,
  };
}

function resultOf(response: AnthropicCreateResponse): GenerateResult {
  const text = response.content
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('');
  const usage = response.usage;
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  return {
    text,
    finishReason: finishReasonOf(response.stop_reason),
    usage: {
      // Anthropic reports cached input apart; the total is what the context window holds.
      inputTokens: usage.input_tokens + cacheRead + cacheWrite,
      outputTokens: usage.output_tokens,
      ...(typeof usage.cache_read_input_tokens === 'number'
        ? { cacheReadTokens: usage.cache_read_input_tokens }
        : {}),
      ...(typeof usage.cache_creation_input_tokens === 'number'
        ? { cacheWriteTokens: usage.cache_creation_input_tokens }
        : {}),
    },
  };
}

function finishReasonOf(stopReason: string | null): GenerateResult['finishReason'] {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other';
  }
}

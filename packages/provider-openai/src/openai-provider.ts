import {
  type CountTokensRequest,
  type GenerateRequest,
  type GenerateResult,
  type Provider,
  ProviderError,
  type TokenCount,
  type TokenEstimator,
} from '@compaction/core';
import { type SdkProvider, type SdkProviderSettings, sdkProviderBase } from '@compaction/provider-utils';
import {
  callMethod,
  createOpenAIClient,
  type OpenAIClient,
  type OpenAIClientSettings,
} from './openai-client.js';
import { toOpenAICompactionError } from './openai-error.js';
import { countOpenAIInputTokens, type OpenAIInputTokensClient } from './openai-input-token-count.js';
import { type OpenAIModelId, openaiModels } from './openai-model-limits.js';
import { lazyResponsesCompact, openaiResponsesNativeCompaction } from './openai-native-compaction.js';
import { toOpenAIResponsesGenerateInput } from './openai-responses-generate-input.js';
import { type EstimatorLoader, fallbackEstimator, loadTiktokenEstimator } from './openai-token-estimator.js';
import { parseOpenAIContextOverflow } from './parse-openai-context-overflow.js';
import { toOpenAIChatMessages } from './to-openai-chat-messages.js';

/**
 * A {@link Provider} over the OpenAI API. With `api: 'responses'`, `nativeCompaction` is the standalone
 * `responses.compact` for the provider's model (see {@link openaiResponsesNativeCompaction}), present when the
 * client can make the call (an injected client with `responses.compact`, or one built from the settings); the
 * `native` strategy chosen by name uses it. Chat Completions has no compaction of its own: no member.
 */
export type OpenAIProvider = SdkProvider<'openai'>;

/** Settings of {@link createOpenAIProvider}. The default `model` is `gpt-5.4`. */
export interface OpenAIProviderSettings
  extends OpenAIClientSettings,
    SdkProviderSettings<OpenAIModelId, OpenAIClient> {
  /** Which API `generate` calls: `chat` (Chat Completions, default) or `responses`. */
  api?: 'chat' | 'responses';
  /** Role of system messages: `system` (default) or `developer`. */
  systemRole?: 'system' | 'developer';
  /** Use a model's full window where it bills beyond a standard one (GPT-5.4: 1.05M instead of 272K). Default `false`. */
  longContext?: boolean;
  /** The tokenizer `countTokens` uses; default: `@compaction/tokenizer-tiktoken` when installed. */
  estimator?: TokenEstimator;
  /** How to load a tokenizer for a model when none is given. Default {@link loadTiktokenEstimator}. */
  loadEstimator?: EstimatorLoader;
  /**
   * How `countTokens` counts: `local` (default) with the tokenizer above, or `api` with OpenAI's input token
   * count endpoint (`POST /v1/responses/input_tokens`, `openai` 6 or later): exact for images and files too,
   * at the cost of a request.
   */
  countTokens?: 'local' | 'api';
}

/**
 * Creates the OpenAI provider: `generate` through Chat Completions or the Responses API (no tools: both
 * accept earlier tool calls and their outputs without definitions; a Responses `compaction_trigger` is left
 * out),
 * `countTokens` with tiktoken when `@compaction/tokenizer-tiktoken` is installed (else core's estimate, and
 * the count says so), recognition of `context_length_exceeded`, and model limits from a built-in table. The
 * client is injected or built from the settings on first use.
 */
export function createOpenAIProvider(settings: OpenAIProviderSettings = {}): OpenAIProvider {
  const base = sdkProviderBase('openai', settings, openaiModels, () => createOpenAIClient(settings));
  const { modelId } = base.members;
  const { getClient } = base;
  const estimators = new Map<string, Promise<TokenEstimator>>();
  const estimatorFor = (model: string): Promise<TokenEstimator> => {
    if (settings.estimator !== undefined) return Promise.resolve(settings.estimator);
    const load = settings.loadEstimator ?? loadTiktokenEstimator;
    let estimator = estimators.get(model);
    if (estimator === undefined) {
      estimator = load(model).then(
        (loaded) => loaded ?? fallbackEstimator,
        () => fallbackEstimator,
      );
      estimators.set(model, estimator);
    }
    return estimator;
  };

  const injected = settings.client as { responses?: { compact?: unknown } } | undefined;
  const nativeCompaction =
    settings.api !== 'responses' ||
    (injected !== undefined && typeof injected.responses?.compact !== 'function')
      ? {}
      : {
          nativeCompaction: openaiResponsesNativeCompaction({
            client: lazyResponsesCompact(getClient),
            model: modelId,
            ...(settings.systemRole === undefined ? {} : { systemRole: settings.systemRole }),
          }),
        };

  return {
    ...base.members,
    ...nativeCompaction,
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      const { modelId: model, maxOutputTokens: maxTokens } = base.resolve(request);
      const temperature = request.temperature === undefined ? {} : { temperature: request.temperature };
      const options = request.abortSignal === undefined ? {} : { signal: request.abortSignal };
      const systemRole = settings.systemRole === undefined ? {} : { systemRole: settings.systemRole };
      try {
        const resolved = await getClient();
        if (settings.api === 'responses') {
          if (resolved.responses === undefined) {
            throw new ProviderError({ provider: 'openai', message: 'the client has no responses API' });
          }
          const body = {
            model,
            input: toOpenAIResponsesGenerateInput(request.messages, systemRole),
            max_output_tokens: maxTokens,
            store: false,
            ...temperature,
          };
          return responsesResult(await callMethod<ResponsesResponse>(resolved.responses, body, options));
        }
        const body = {
          model,
          messages: toOpenAIChatMessages(request.messages, systemRole),
          max_completion_tokens: maxTokens,
          ...temperature,
        };
        return chatResult(await callMethod<ChatResponse>(resolved.chat.completions, body, options));
      } catch (error) {
        throw toOpenAICompactionError(error, request.abortSignal);
      }
    },
    async countTokens(request: CountTokensRequest): Promise<TokenCount> {
      if (settings.countTokens === 'api') {
        const client = (await getClient()) as OpenAIInputTokensClient;
        const systemRole = settings.systemRole === undefined ? {} : { systemRole: settings.systemRole };
        return countOpenAIInputTokens(client, {
          model: request.modelId ?? modelId,
          messages: request.messages,
          ...systemRole,
        });
      }
      const estimator = await estimatorFor(request.modelId ?? modelId);
      const tokens = request.messages.reduce((sum, message) => sum + estimator.countMessage(message), 0);
      const exact = estimator !== fallbackEstimator;
      return { tokens, accuracy: exact ? 'exact' : 'estimated', source: estimator.name };
    },
    parseContextOverflow: parseOpenAIContextOverflow,
  };
}

interface ChatResponse {
  choices: Array<{
    message: { content: string | null; refusal?: string | null };
    finish_reason: string | null;
  }>;
  usage?: {
    prompt_tokens: number;
    completion_tokens: number;
    prompt_tokens_details?: { cached_tokens?: number } | null;
  };
}

function chatResult(response: ChatResponse): GenerateResult {
  const choice = response.choices[0];
  const finish = choice?.finish_reason;
  const usage = response.usage;
  return {
    text: choice?.message.content ?? choice?.message.refusal ?? '',
    finishReason:
      finish === 'stop'
        ? 'stop'
        : finish === 'length'
          ? 'length'
          : finish === 'content_filter'
            ? 'content-filter'
            : 'other',
    ...(usage === undefined
      ? {}
      : usageOf(usage.prompt_tokens, usage.completion_tokens, usage.prompt_tokens_details?.cached_tokens)),
  };
}

interface ResponsesResponse {
  status?: string;
  error?: { code?: string; message?: string } | null;
  incomplete_details?: { reason?: string } | null;
  output: Array<{ type: string; content?: Array<{ type: string; text?: string; refusal?: string }> }>;
  usage?: {
    input_tokens: number;
    output_tokens: number;
    input_tokens_details?: { cached_tokens?: number } | null;
  };
}

function responsesResult(response: ResponsesResponse): GenerateResult {
  if (response.status === 'failed' && response.error != null) {
    // A failed response is returned, not thrown; the overflow check reads its error object.
    throw toOpenAICompactionError({ error: response.error, message: response.error.message });
  }
  const text = response.output
    .filter((item) => item.type === 'message')
    .flatMap((item) => item.content ?? [])
    .map((part) => (part.type === 'output_text' ? (part.text ?? '') : (part.refusal ?? '')))
    .join('');
  const reason = response.incomplete_details?.reason;
  const usage = response.usage;
  return {
    text,
    finishReason:
      response.status === 'incomplete'
        ? reason === 'max_output_tokens'
          ? 'length'
          : reason === 'content_filter'
            ? 'content-filter'
            : 'other'
        : response.status === 'completed' || response.status === undefined
          ? 'stop'
          : 'other',
    ...(usage === undefined
      ? {}
      : usageOf(usage.input_tokens, usage.output_tokens, usage.input_tokens_details?.cached_tokens)),
  };
}

/** The usage of a result, with the cached input tokens when the API reported them. */
function usageOf(inputTokens: number, outputTokens: number, cachedTokens: number | null | undefined) {
  return {
    usage: {
      inputTokens,
      outputTokens,
      ...(typeof cachedTokens === 'number' ? { cacheReadTokens: cachedTokens } : {}),
    },
  };
}

import type { Message } from '../messages/message.js';
import type { NativeCompactionV1 } from './native-compaction-v1.js';

/** Input of {@link ProviderV1.generate}: a plain text generation, with no tools. */
export interface GenerateRequestV1 {
  /** The conversation to continue; system messages become the provider's system prompt. */
  messages: Message[];
  /** Model to use; defaults to the provider's configured model. */
  modelId?: string;
  maxOutputTokens?: number;
  temperature?: number;
  abortSignal?: AbortSignal;
}

/** Token usage a provider reported. */
export interface UsageV1 {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from the provider's prompt cache, when reported. */
  cacheReadTokens?: number;
  /** Input tokens written to the provider's prompt cache, when reported. */
  cacheWriteTokens?: number;
}

/** Output of {@link ProviderV1.generate}. */
export interface GenerateResultV1 {
  text: string;
  /** Why generation stopped: `length` means the output was cut at `maxOutputTokens`. */
  finishReason: 'stop' | 'length' | 'content-filter' | 'other';
  usage?: UsageV1;
}

/** Input of {@link ProviderV1.countTokens}. */
export interface CountTokensRequestV1 {
  messages: Message[];
  modelId?: string;
}

/** A token count together with how it was obtained. */
export interface TokenCountV1 {
  tokens: number;
  /** `exact` when the provider or its tokenizer counted; `estimated` otherwise. */
  accuracy: 'exact' | 'estimated';
  /** Which counter produced the number, such as `anthropic:count_tokens` or `tiktoken:o200k_base`. */
  source: string;
}

/** What a provider said when it refused a request as too long for the model. */
export interface ContextOverflowV1 {
  /** Tokens the request had, when the error said. */
  requestTokens?: number;
  /** The model's maximum, when the error said. */
  maximumTokens?: number;
  /** The output the request asked for, when the error counted it in `requestTokens`. */
  outputTokens?: number;
  /** The provider's own message. */
  message: string;
}

/** Context window and output limit of a model. */
export interface ModelLimitsV1 {
  contextWindow: number;
  maxOutputTokens: number;
}

/**
 * An LLM provider, as Compaction needs it: generating summaries, counting tokens exactly where possible,
 * recognising "too long" errors and knowing a model's limits. Adapters implement it over a provider's SDK.
 */
export interface ProviderV1 {
  readonly specificationVersion: 'v1';
  /** Provider name, such as `anthropic` or `openai`. */
  readonly name: string;
  /** The default model. */
  readonly modelId: string;
  /** Generates text (used for summaries). Must honour `abortSignal`. */
  generate(request: GenerateRequestV1): Promise<GenerateResultV1>;
  /** Counts input tokens exactly, when the provider can. */
  countTokens?(request: CountTokensRequestV1): Promise<TokenCountV1>;
  /** Recognises a context-overflow error thrown by this provider's SDK; `undefined` for any other error. */
  parseContextOverflow?(error: unknown): ContextOverflowV1 | undefined;
  /** Context window and output limit of a model (the default model when omitted). */
  modelLimits(modelId?: string): ModelLimitsV1;
  /** The provider's own compaction, where the adapter offers it for the model (the `native` strategy uses it). */
  readonly nativeCompaction?: NativeCompactionV1;
}

export type Provider = ProviderV1;
export type GenerateRequest = GenerateRequestV1;
export type GenerateResult = GenerateResultV1;
export type CountTokensRequest = CountTokensRequestV1;
export type TokenCount = TokenCountV1;
export type ContextOverflow = ContextOverflowV1;
export type ModelLimits = ModelLimitsV1;
export type Usage = UsageV1;

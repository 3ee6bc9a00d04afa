import type { CountTokensRequest, ModelLimits, Provider, TokenCount } from '@compaction/core';
import {
  createModelLimitsResolver,
  type ModelLimitsResolverSettings,
} from './create-model-limits-resolver.js';

/** A provider adapter over an SDK: a {@link Provider} named `Name` that always counts tokens. */
export interface SdkProvider<Name extends string> extends Provider {
  readonly name: Name;
  countTokens(request: CountTokensRequest): Promise<TokenCount>;
}

/** The settings every provider adapter over an SDK takes, besides its client's own. */
export interface SdkProviderSettings<ModelId extends string, Client> {
  /** The default model. */
  model?: ModelId;
  /** A ready SDK client; when given, the client settings are ignored. */
  client?: Client;
  /** Use a model's long-context window where it has one. Default `false`. */
  longContext?: boolean;
  /** Limits by model id that replace or complete the built-in table. */
  modelLimits?: Record<string, Partial<ModelLimits>>;
  /** The output limit of `generate` when the request sets none. Default 4,096 (capped at the model's limit). */
  maxOutputTokens?: number;
  /** Receives warnings (an unknown model). Default `console.warn`. */
  warn?: (message: string) => void;
}

/**
 * The `modelLimits` of a provider over an SDK: its model table (see {@link createModelLimitsResolver}) with the
 * long-context choice, the overrides and the warning sink of its settings.
 */
export function sdkProviderModelLimits(
  settings: SdkProviderSettings<string, unknown>,
  table: Pick<ModelLimitsResolverSettings, 'source' | 'defaultModelId' | 'find' | 'fallback'>,
): (modelId?: string) => ModelLimits {
  return createModelLimitsResolver({
    ...table,
    longContext: settings.longContext,
    overrides: settings.modelLimits,
    warn: settings.warn,
  });
}

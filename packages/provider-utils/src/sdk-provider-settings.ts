import type {
  CountTokensRequest,
  GenerateRequest,
  ModelLimits,
  Provider,
  TokenCount,
} from '@compaction/core';
import { createModelLimitsResolver } from './create-model-limits-resolver.js';
import { findModelEntry, type ModelTableEntry } from './find-model-entry.js';
import { lazyClient } from './lazy-client.js';
import { resolveGenerateRequest } from './resolve-generate-request.js';

/**
 * A provider adapter over an SDK: a {@link Provider} named `Name` that always counts tokens, with the
 * provider's own compaction as `nativeCompaction` where the API and the client offer it (the `native`
 * strategy chosen by name uses it).
 */
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

/** What an adapter knows of its API's models. */
export interface ModelCatalog {
  /** The model used when neither the settings nor a request name one. */
  defaultModel: string;
  /** The limits of known models, by id prefix (see {@link findModelEntry}). */
  table: Readonly<Record<string, ModelTableEntry>>;
  /** The limits assumed for a model the table does not know. */
  fallback: ModelLimits;
}

/** What {@link sdkProviderBase} gives a provider over an SDK. */
export interface SdkProviderBase<Name extends string, Client> {
  /** The members every such provider has: the spec version, its name, its default model, its model limits. */
  members: Pick<SdkProvider<Name>, 'specificationVersion' | 'name' | 'modelId' | 'modelLimits'>;
  /** The model and output limit a `generate` request is sent with (see {@link resolveGenerateRequest}). */
  resolve(request: GenerateRequest): { modelId: string; maxOutputTokens: number };
  /** The settings' client, else one built on first use (see {@link lazyClient}). */
  getClient(): Promise<Client>;
}

/**
 * The part of a provider over an SDK that its settings and its model catalog decide: the default model (the
 * `model` setting, else the catalog's), the model limits (the table with the `longContext` choice and the
 * `modelLimits` overrides, unknown models warned about as `@compaction/provider-<name>`), and the model and
 * output limit of each `generate` request; and the client, the settings' own or one `createClient` builds on
 * first use.
 */
export function sdkProviderBase<Name extends string, Client>(
  name: Name,
  settings: SdkProviderSettings<string, Client>,
  catalog: ModelCatalog,
  createClient: () => Promise<Client>,
): SdkProviderBase<Name, Client> {
  const modelId = settings.model ?? catalog.defaultModel;
  const modelLimits = createModelLimitsResolver({
    source: `@compaction/provider-${name}`,
    defaultModelId: modelId,
    find: (id) => findModelEntry(id, catalog.table),
    fallback: catalog.fallback,
    longContext: settings.longContext,
    overrides: settings.modelLimits,
    warn: settings.warn,
  });
  return {
    members: { specificationVersion: 'v1', name, modelId, modelLimits },
    resolve: (request) =>
      resolveGenerateRequest(request, { modelId, maxOutputTokens: settings.maxOutputTokens, modelLimits }),
    getClient: lazyClient({ provider: name, client: settings.client, create: createClient }),
  };
}

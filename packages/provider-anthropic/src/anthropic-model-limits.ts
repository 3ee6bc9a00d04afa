import type { ModelLimits } from '@compaction/core';
import {
  findModelEntry,
  type ModelCatalog,
  type ModelTableEntry,
  modelTable,
} from '@compaction/provider-utils';

/**
 * Claude model ids with a known window. Any other string is accepted too (an open union), so new models
 * work before this table knows them.
 */
export type AnthropicModelId =
  | 'claude-opus-5-5'
  | 'claude-sonnet-5-5'
  | 'claude-haiku-5-5'
  | 'claude-fable-5-2'
  | 'claude-fable-5-1'
  | 'claude-opus-5'
  | 'claude-sonnet-5'
  | 'claude-opus-4-8'
  | 'claude-opus-4-7'
  | 'claude-opus-4-6'
  | 'claude-sonnet-4-6'
  | 'claude-opus-4-5'
  | 'claude-sonnet-4-5'
  | 'claude-haiku-4-5'
  | 'claude-opus-4-1'
  | 'claude-opus-4-0'
  | 'claude-sonnet-4-0'
  | 'claude-3-7-sonnet-latest'
  | 'claude-3-5-haiku-latest'
  | (string & {});

/**
 * Limits of current Claude models, keyed by id prefix (dated snapshots such as
 * `claude-sonnet-4-5-20250929` match their family). Values are the published context windows and maximum
 * output tokens; override them with the provider's `modelLimits` setting.
 */
export const anthropicModelTable = modelTable([
  // Claude 5 models and Opus 4.7+ have a native 1M-token window.
  [
    { contextWindow: 1_000_000, maxOutputTokens: 128_000 },
    [
      'claude-fable-5',
      'claude-opus-5',
      'claude-sonnet-5',
      'claude-haiku-5',
      'claude-opus-4-8',
      'claude-opus-4-7',
    ],
  ],
  [{ contextWindow: 200_000, maxOutputTokens: 128_000, longContextWindow: 1_000_000 }, ['claude-opus-4-6']],
  [
    { contextWindow: 200_000, maxOutputTokens: 64_000, longContextWindow: 1_000_000 },
    ['claude-sonnet-4-6', 'claude-sonnet-4-5', 'claude-sonnet-4-0', 'claude-sonnet-4-2025'],
  ],
  [
    { contextWindow: 200_000, maxOutputTokens: 64_000 },
    ['claude-opus-4-5', 'claude-haiku-4-5', 'claude-3-7-sonnet'],
  ],
  [
    { contextWindow: 200_000, maxOutputTokens: 32_000 },
    ['claude-opus-4-1', 'claude-opus-4-0', 'claude-opus-4-2025'],
  ],
  [{ contextWindow: 200_000, maxOutputTokens: 8_192 }, ['claude-3-5-sonnet', 'claude-3-5-haiku']],
  [{ contextWindow: 200_000, maxOutputTokens: 4_096 }, ['claude-3-haiku', 'claude-3-opus']],
]);

/**
 * Limits assumed for a model the table does not know (with a warning): the smallest window of current Claude
 * models, so an unknown model is never overfilled.
 */
export const defaultAnthropicModelLimits: ModelLimits = { contextWindow: 200_000, maxOutputTokens: 8_192 };

/** What the provider knows of Claude models: the default model, the table, and the fallback. */
export const anthropicModels: ModelCatalog = {
  defaultModel: 'claude-sonnet-5-5',
  table: anthropicModelTable,
  fallback: defaultAnthropicModelLimits,
};

/** The beta flag that enables the 1M-token window on the models that support it. */
export const longContextBeta = 'context-1m-2025-08-07';

/** The table entry for a model id: exact match first, then the longest matching prefix. */
export function findAnthropicModel(
  modelId: string,
  table: Readonly<Record<string, ModelTableEntry>> = anthropicModelTable,
): ModelTableEntry | undefined {
  return findModelEntry(modelId, table);
}

/** Whether a model accepts the long-context beta. */
export function supportsLongContext(modelId: string): boolean {
  return findAnthropicModel(modelId)?.longContextWindow !== undefined;
}

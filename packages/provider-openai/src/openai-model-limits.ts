import type { ModelLimits } from '@compaction/core';
import {
  findModelEntry,
  type ModelCatalog,
  type ModelTableEntry,
  modelTable,
} from '@compaction/provider-utils';

/** OpenAI model ids with a known window; any other string is accepted too (an open union). */
export type OpenAIModelId =
  | 'gpt-5.6-sol'
  | 'gpt-5.6-terra'
  | 'gpt-5.6-luna'
  | 'gpt-5.4'
  | 'gpt-5.4-mini'
  | 'gpt-5.4-nano'
  | 'gpt-5.2'
  | 'gpt-5.1'
  | 'gpt-5'
  | 'gpt-5-mini'
  | 'gpt-5-nano'
  | 'gpt-4.1'
  | 'gpt-4.1-mini'
  | 'gpt-4.1-nano'
  | 'o4-mini'
  | 'o3'
  | 'o3-mini'
  | 'o1'
  | 'gpt-4o'
  | 'gpt-4o-mini'
  | (string & {});

/**
 * Limits of OpenAI models, keyed by id prefix (dated snapshots such as `gpt-4o-2024-08-06` match their
 * family; the longest prefix wins, so `gpt-4o-mini` is not read as `gpt-4o`). Override them with the
 * provider's `modelLimits` setting.
 */
export const openaiModelTable = modelTable([
  [{ contextWindow: 272_000, maxOutputTokens: 128_000, longContextWindow: 1_000_000 }, ['gpt-5.6']],
  [{ contextWindow: 272_000, maxOutputTokens: 128_000, longContextWindow: 1_050_000 }, ['gpt-5.4']],
  [
    { contextWindow: 400_000, maxOutputTokens: 128_000 },
    ['gpt-5.4-mini', 'gpt-5.4-nano', 'gpt-5.2', 'gpt-5.1', 'gpt-5'],
  ],
  [
    { contextWindow: 128_000, maxOutputTokens: 16_384 },
    ['gpt-5.3-chat', 'gpt-5.2-chat', 'gpt-5.1-chat', 'gpt-5-chat', 'gpt-4o', 'chatgpt-4o'],
  ],
  [{ contextWindow: 1_047_576, maxOutputTokens: 32_768 }, ['gpt-4.1']],
  [{ contextWindow: 200_000, maxOutputTokens: 100_000 }, ['o4-mini', 'o3', 'o1']],
  [{ contextWindow: 128_000, maxOutputTokens: 65_536 }, ['o1-mini']],
  [{ contextWindow: 128_000, maxOutputTokens: 32_768 }, ['o1-preview']],
  [{ contextWindow: 128_000, maxOutputTokens: 4_096 }, ['gpt-4-turbo', 'gpt-4-1106', 'gpt-4-0125']],
  [{ contextWindow: 32_768, maxOutputTokens: 8_192 }, ['gpt-4-32k']],
  [{ contextWindow: 8_192, maxOutputTokens: 8_192 }, ['gpt-4']],
  [{ contextWindow: 16_385, maxOutputTokens: 4_096 }, ['gpt-3.5-turbo']],
]);

/** Limits assumed for a model the table does not know (with a warning). */
export const defaultOpenAIModelLimits: ModelLimits = { contextWindow: 128_000, maxOutputTokens: 16_384 };

/** What the provider knows of OpenAI models: the default model, the table, and the fallback. */
export const openaiModels: ModelCatalog = {
  defaultModel: 'gpt-5.4',
  table: openaiModelTable,
  fallback: defaultOpenAIModelLimits,
};

/** The table entry for a model id: exact match first, then the longest matching prefix. */
export function findOpenAIModel(
  modelId: string,
  table: Readonly<Record<string, ModelTableEntry>> = openaiModelTable,
): ModelTableEntry | undefined {
  return findModelEntry(modelId, table);
}

/** The tiktoken encoding of a model: `cl100k_base` for GPT-4 (not 4o or 4.1) and GPT-3.5, `o200k_base` otherwise. */
export function encodingForModel(modelId: string): 'o200k_base' | 'cl100k_base' {
  const older =
    modelId.startsWith('gpt-3.5') || (modelId.startsWith('gpt-4') && !/^gpt-4(o|\.)/.test(modelId));
  return older ? 'cl100k_base' : 'o200k_base';
}

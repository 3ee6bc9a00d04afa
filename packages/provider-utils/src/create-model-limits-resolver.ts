import type { ModelLimits } from '@compaction/core';
import type { ModelTableEntry } from './find-model-entry.js';

/** Settings of {@link createModelLimitsResolver}. */
export interface ModelLimitsResolverSettings {
  /** Who speaks in the warning, such as `@compaction/provider-anthropic`. */
  source: string;
  /** The model the resolver answers for when called without an id. */
  defaultModelId: string;
  /** Looks a model up in the adapter's table (see `findModelEntry`). */
  find: (modelId: string) => ModelTableEntry | undefined;
  /** Limits assumed for a model the table does not know. */
  fallback: ModelLimits;
  /** Use an entry's `longContextWindow` where it has one. Default `false`. */
  longContext?: boolean;
  /** Limits by model id that replace or complete the table's (the provider's `modelLimits` setting). */
  overrides?: Readonly<Record<string, Partial<ModelLimits>>>;
  /** Receives the unknown-model warning, once per model id. Default `console.warn`. */
  warn?: (message: string) => void;
}

/**
 * The `modelLimits` of a provider: the table's entry (its long-context window with `longContext`), completed
 * or replaced field by field by the overrides. A model the table does not know gets `fallback`, with one
 * warning per model id unless the overrides give both numbers.
 */
export function createModelLimitsResolver(
  settings: ModelLimitsResolverSettings,
): (modelId?: string) => ModelLimits {
  const warn = settings.warn ?? ((message: string) => console.warn(message));
  const warned = new Set<string>();
  const { fallback } = settings;
  return (id = settings.defaultModelId) => {
    const entry = settings.find(id);
    const override = settings.overrides?.[id];
    const overridden = override?.contextWindow !== undefined && override.maxOutputTokens !== undefined;
    if (entry === undefined && !overridden && !warned.has(id)) {
      warned.add(id);
      warn(
        `${settings.source}: unknown model "${id}"; assuming a ${fallback.contextWindow}-token window and ${fallback.maxOutputTokens} output tokens. Set modelLimits to override.`,
      );
    }
    const base = entry ?? fallback;
    const contextWindow =
      settings.longContext === true && entry?.longContextWindow !== undefined
        ? entry.longContextWindow
        : base.contextWindow;
    return { contextWindow, maxOutputTokens: base.maxOutputTokens, ...override };
  };
}

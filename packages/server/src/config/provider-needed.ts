import type { StrategyRegistry } from '@compaction/core';

/**
 * The name of the first strategy among `entries` (a config's `strategy` and `fallback`, or lists of them) that
 * calls the provider, as its definition says (`needsProvider`: a summarization that writes text, a `native`
 * whose fallback does, a third-party strategy of its own); `undefined` when none does.
 */
export function strategyNeedingProvider(registry: StrategyRegistry, entries: unknown): string | undefined {
  if (Array.isArray(entries)) {
    for (const entry of entries) {
      const name = strategyNeedingProvider(registry, entry);
      if (name !== undefined) return name;
    }
    return undefined;
  }
  if (registry.needsProvider?.(entries) !== true) return undefined;
  return typeof entries === 'string' ? entries : String((entries as { name: unknown }).name);
}

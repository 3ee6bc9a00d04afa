import type { ModelLimits } from '@compaction/core';

/** A row of an adapter's model table: the standard limits and, where the model has one, a longer window. */
export interface ModelTableEntry extends ModelLimits {
  /** The window a model offers on request (a beta flag, a higher price); used with `longContext`. */
  longContextWindow?: number;
}

/**
 * The table entry for a model id: the exact id first, then the longest key the id starts with, so dated
 * snapshots (`gpt-4o-2024-08-06`) match their family and `gpt-4o-mini` is not read as `gpt-4o`. `undefined`
 * when no key matches.
 */
export function findModelEntry<Entry extends ModelLimits>(
  modelId: string,
  table: Readonly<Record<string, Entry>>,
): Entry | undefined {
  const exact = table[modelId];
  if (exact !== undefined) return exact;
  let best: string | undefined;
  for (const prefix of Object.keys(table)) {
    if (modelId.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = prefix;
  }
  return best === undefined ? undefined : table[best];
}

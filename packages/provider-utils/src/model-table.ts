import type { ModelTableEntry } from './find-model-entry.js';

/** One set of limits and the model id prefixes that have it. */
export type ModelTableRow<Entry extends ModelTableEntry = ModelTableEntry> = readonly [
  limits: Entry,
  prefixes: readonly string[],
];

/**
 * A model table (see `findModelEntry`) written as rows of limits, each with the id prefixes that share them,
 * so a table states each set of limits once. Every prefix gets its own copy of the limits; a prefix listed in
 * two rows keeps the later one.
 */
export function modelTable<Entry extends ModelTableEntry>(
  rows: readonly ModelTableRow<Entry>[],
): Readonly<Record<string, Entry>> {
  const table: Record<string, Entry> = {};
  for (const [limits, prefixes] of rows) {
    for (const prefix of prefixes) table[prefix] = { ...limits };
  }
  return table;
}

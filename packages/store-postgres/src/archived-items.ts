// The rows of `compaction_archived_items` (see `archive-search-migration.ts`) as `append` and the migration
// write them.

/**
 * What the store indexes of an archived item: its text as PostgreSQL can hold it (a NUL as U+FFFD; node-postgres
 * sends a lone surrogate as U+FFFD too), which the insert folds to lower case.
 */
export interface IndexedItem {
  handle: string;
  label: string;
  position: number;
  text: string;
}

/** The items of a record to index: the last of each handle, as it is the one `recall` answers. */
export function indexedItems(
  archived: readonly { handle: string; label: string; text: string }[],
): IndexedItem[] {
  const byHandle = new Map<string, IndexedItem>();
  archived.forEach((item, position) => {
    byHandle.delete(item.handle);
    const text = item.text.replaceAll('\u0000', '\ufffd');
    byHandle.set(item.handle, { handle: item.handle, label: item.label, position, text });
  });
  return [...byHandle.values()];
}

/** The columns of {@link indexedItems} as arrays, for `unnest`. */
export function itemColumns(items: readonly IndexedItem[]): [string[], string[], number[], string[]] {
  return [
    items.map((item) => item.handle),
    items.map((item) => item.label),
    items.map((item) => item.position),
    items.map((item) => item.text),
  ];
}

/**
 * Inserts a record's items, replacing each handle's item of an older record in its session (also when appends
 * of one session race).
 */
export const insertItemsStatement = `INSERT INTO compaction_archived_items
    (session_id, handle, label, sequence, position, round, archived_at, folded)
  SELECT record.session_id, item.handle, item.label, record.sequence, item.position, record.round,
    record.started_at, lower(item.text COLLATE "und-x-icu")
  FROM record, unnest($1::text[], $2::text[], $3::int[], $4::text[]) AS item (handle, label, position, text)
  ON CONFLICT (session_id, handle) DO UPDATE SET label = excluded.label, sequence = excluded.sequence,
    position = excluded.position, round = excluded.round, archived_at = excluded.archived_at,
    folded = excluded.folded
  WHERE compaction_archived_items.sequence < excluded.sequence`;

import type { ArchiveSearchHit } from '@compaction/core';
import { type ArchiveSearchPlan, archiveSearchSnippet } from '@compaction/core/stores';
import type { Queryable } from './store-queries.js';

interface Row {
  session_id: string;
  handle: string;
  label: string;
  round: number;
  archived_at: string;
  position: number;
  /** A `bigint`, which node-postgres reads as a string. */
  sequence: string;
  archived: string;
}

/**
 * Searches `compaction_archived_items` (see `archive-search-migration.ts`): every term a substring of the
 * folded text (`LIKE`, which the trigram index serves), ranked as the in-memory store ranks, by the
 * characters the matches cover over the text's length plus 200; equal ranks newest first. The snippets are cut
 * from the hits' records, read for the hits only.
 */
export async function searchArchivedItems(
  client: Queryable,
  plan: ArchiveSearchPlan,
): Promise<ArchiveSearchHit[]> {
  const { terms, sessionId, limit } = plan;
  const parameters: unknown[] = [];
  const parameter = (value: unknown) => {
    parameters.push(value);
    return `$${parameters.length}`;
  };
  const conditions: string[] = [];
  const covered: string[] = [];
  for (const term of terms) {
    const lowered = `lower(${parameter(term)}::text COLLATE "und-x-icu")`;
    // `\` is LIKE's escape character: the term's own `%`, `_` and `\` match themselves.
    const pattern = `'%' || replace(replace(replace(${lowered}, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;
    // Under the column's collation, which the trigram index is built with: the index serves no other.
    conditions.push(`folded LIKE (${pattern}) COLLATE "default"`);
    covered.push(`(char_length(folded) - char_length(replace(folded, ${lowered}, '')))`);
  }
  if (sessionId !== undefined) conditions.push(`session_id = ${parameter(sessionId)}`);
  const { rows } = await client.query<Row>(
    `SELECT hits.*, compaction_records.archived FROM (
       SELECT session_id, handle, label, round, archived_at, position, sequence,
         (${covered.join(' + ')})::float8 / (char_length(folded) + 200) AS score
       FROM compaction_archived_items
       WHERE ${conditions.join(' AND ')}
       ORDER BY score DESC, archived_at DESC, sequence DESC, position DESC
       LIMIT ${limit}
     ) AS hits JOIN compaction_records USING (sequence)
     ORDER BY score DESC, archived_at DESC, sequence DESC, position DESC`,
    parameters,
  );
  const records = new Map<string, { text: string }[]>();
  return rows.map((row) => {
    // A record that archived several hits is read once.
    let archived = records.get(row.sequence);
    if (archived === undefined) {
      archived = JSON.parse(row.archived) as { text: string }[];
      records.set(row.sequence, archived);
    }
    return {
      sessionId: row.session_id,
      handle: row.handle,
      label: row.label,
      round: row.round,
      archivedAt: row.archived_at,
      snippet: archiveSearchSnippet(archived[row.position]!.text.normalize('NFC'), terms),
    };
  });
}

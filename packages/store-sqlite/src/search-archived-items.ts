import type { ArchiveSearchHit } from '@compaction/core';
import { type ArchiveSearchPlan, archiveSearchScore, archiveSearchSnippet } from '@compaction/core/stores';
import type { Database } from './sqlite-connection.js';

type Row = Record<string, unknown>;

// The trigram index finds runs of at least this many characters; shorter terms are checked on the text.
const shortestIndexedTerm = 3;

/**
 * Searches the index of archived items (see `archive-search-schema.ts`): terms of three characters or more
 * through FTS5, ranked by bm25, equal ranks newest first; shorter terms, and the ranking when every term is
 * short, on the items' text as the in-memory store does.
 */
export function searchArchivedItems(database: Database, plan: ArchiveSearchPlan): ArchiveSearchHit[] {
  const { terms, sessionId, limit } = plan;
  const indexed = terms.filter((term) => [...term].length >= shortestIndexedTerm);
  const checked = indexed.length === terms.length ? [] : terms;
  const conditions: string[] = [];
  const parameters: (string | number)[] = [];
  if (indexed.length > 0) {
    conditions.push('archived_text MATCH ?');
    // Each term as an FTS5 string, so no character of it is query syntax.
    parameters.push(indexed.map((term) => `"${term.replaceAll('"', '""')}"`).join(' '));
  }
  if (sessionId !== undefined) {
    conditions.push('archived_items.session_id = ?');
    parameters.push(sessionId);
  }
  // Short terms narrow the rows in SQL too where SQL compares them as the search does: terms without case
  // (Chinese, Japanese, digits) by `instr`, ASCII terms by `LIKE`, which folds ASCII case only (missing
  // only the few letters Unicode folds to ASCII ones, such as the Kelvin sign).
  for (const term of terms.filter((term) => !indexed.includes(term))) {
    if (term.toLowerCase() === term.toUpperCase()) {
      conditions.push('instr(item_text, ?) > 0');
      parameters.push(term);
    } else if (/^[\x20-\x7e]+$/u.test(term)) {
      conditions.push("item_text LIKE ? ESCAPE '\\'");
      parameters.push(`%${term.replace(/[\\%_]/gu, '\\$&')}%`);
    }
  }
  const ranked = indexed.length > 0;
  const rows = database.all(
    `SELECT archived_items.session_id, handle, label, archived_items.round, archived_at,
       json_extract(compactions.archived, '$[' || position || '].text') AS item_text
     FROM ${ranked ? 'archived_text JOIN archived_items ON archived_items.item_id = archived_text.rowid' : 'archived_items'}
       JOIN compactions USING (sequence)
     ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''}
     ORDER BY ${ranked ? 'bm25(archived_text), ' : ''}archived_at DESC, sequence DESC, position DESC
     ${checked.length === 0 ? `LIMIT ${limit}` : ''}`,
    parameters,
  ) as Row[];
  const found = rows.flatMap((row) => {
    const text = String(row.item_text ?? '').normalize('NFC');
    const score = checked.length === 0 ? 0 : archiveSearchScore(text, checked);
    return score === undefined ? [] : [{ row, text, score }];
  });
  // Rows come ranked by bm25 when a term was indexed; otherwise by time only, so rank them by their score.
  // The sort is stable: equal scores keep their order, newest first.
  if (!ranked) found.sort((left, right) => right.score - left.score);
  return found.slice(0, limit).map(({ row, text }) => ({
    sessionId: String(row.session_id),
    handle: String(row.handle),
    label: String(row.label),
    round: Number(row.round),
    archivedAt: String(row.archived_at),
    snippet: archiveSearchSnippet(text, terms),
  }));
}

import type { ArchiveSearchQuery } from './compaction-store.js';
import { InvalidSearchQueryError } from './invalid-search-query-error.js';

/** A query checked and taken apart: what every store searches by. */
export interface ArchiveSearchPlan {
  /**
   * The words and the phrases (their inner white space kept as typed, so a line copied from a tool's output,
   * with its runs of spaces and tabs, finds that line), each in Unicode NFC, each to be found in an item's text
   * as it is, in any case; the characters that are syntax in SQL or full-text engines (`*`,
   * `-`, `:`, `(`, `'`) are plain text here.
   */
  terms: string[];
  sessionId?: string;
  /** 1 to 100. */
  limit: number;
}

const defaultLimit = 10;
const maximumLimit = 100;
// Bounds on what one query costs a store: every term is one more pass over each candidate's text.
const maximumTerms = 32;
const maximumTextLength = 1000;

/**
 * Checks a query and splits its text into terms: runs of text in double quotes are phrases, the rest is
 * split into words at white space. A quote left open runs to the end. A limit over 100 is taken as 100.
 */
export function planArchiveSearch(query: ArchiveSearchQuery): ArchiveSearchPlan {
  const { text, sessionId, limit = defaultLimit } = query;
  if (typeof text !== 'string') {
    throw new InvalidSearchQueryError({ path: 'text', message: 'must be a string of words to search for' });
  }
  if (text.length > maximumTextLength) {
    const message = `is ${text.length} characters long; at most ${maximumTextLength} are searched`;
    throw new InvalidSearchQueryError({ path: 'text', message });
  }
  if (sessionId !== undefined && typeof sessionId !== 'string') {
    throw new InvalidSearchQueryError({ path: 'sessionId', message: 'must be a string when given' });
  }
  if (!Number.isInteger(limit) || limit < 1) {
    throw new InvalidSearchQueryError({ path: 'limit', message: `must be a positive integer, not ${limit}` });
  }
  const terms = termsOf(text.normalize('NFC'));
  if (terms.length === 0) {
    throw new InvalidSearchQueryError({ path: 'text', message: 'has no word or phrase to search for' });
  }
  if (terms.length > maximumTerms) {
    const message = `has ${terms.length} words and phrases; at most ${maximumTerms} are searched`;
    throw new InvalidSearchQueryError({ path: 'text', message });
  }
  return { terms, ...(sessionId === undefined ? {} : { sessionId }), limit: Math.min(limit, maximumLimit) };
}

function termsOf(text: string): string[] {
  const terms = text.split('"').flatMap((part, index) => {
    // Parts at odd positions were between quotes.
    if (index % 2 === 1) return [part.trim()];
    return part.split(/\s+/u);
  });
  const seen = new Set<string>();
  return terms.filter((term) => {
    const key = term.toLowerCase();
    if (term === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

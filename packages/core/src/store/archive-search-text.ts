/** Where a term was found in a text: `[start, end)` in UTF-16 code units. */
type Range = [start: number, end: number];

const snippetLength = 200;
// How much of the text before the first match a snippet shows, so the match is read in its context.
const snippetLead = 60;

function patternOf(term: string): RegExp {
  // `i` with `u` folds case by Unicode's simple case folding, as the databases' full-text indexes do.
  return new RegExp(term.replace(/[\\^$.*+?()[\]{}|/]/gu, '\\$&'), 'giu');
}

/** Every place any of `terms` occurs in `text`, sorted, overlapping places merged. */
function matchRanges(text: string, terms: readonly string[]): Range[] {
  const ranges = terms
    .flatMap((term) => [...text.matchAll(patternOf(term))])
    .map((match): Range => [match.index, match.index + match[0].length])
    .sort((left, right) => left[0] - right[0] || right[1] - left[1]);
  const merged: Range[] = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last !== undefined && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}

/**
 * How well `text` matches `terms`, or `undefined` when one of them is missing: the characters the matches
 * cover over the text's length plus 200, so more matches rank higher, and of two texts with the same matches
 * the shorter one, where they stand closer together.
 */
export function archiveSearchScore(text: string, terms: readonly string[]): number | undefined {
  let covered = 0;
  for (const term of terms) {
    const matches = [...text.matchAll(patternOf(term))];
    if (matches.length === 0) return undefined;
    covered += matches.reduce((sum, match) => sum + match[0].length, 0);
  }
  return covered / (text.length + snippetLength);
}

/**
 * About 200 characters of `text` around the first match of any of `terms`, each match in it marked as
 * `**match**`, white space collapsed to one space, `…` where the text goes on.
 */
export function archiveSearchSnippet(text: string, terms: readonly string[]): string {
  const ranges = matchRanges(text, terms);
  const first = ranges[0]?.[0] ?? 0;
  let start = Math.max(0, Math.min(first - snippetLead, text.length - snippetLength));
  let end = Math.min(text.length, start + snippetLength);
  // Neither end splits a surrogate pair.
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start -= 1;
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end += 1;
  let snippet = '';
  let position = start;
  for (const [matchStart, matchEnd] of ranges) {
    if (matchEnd <= start) continue;
    if (matchStart >= end) break;
    const from = Math.max(matchStart, start);
    const to = Math.min(matchEnd, end);
    snippet += `${text.slice(position, from)}**${text.slice(from, to)}**`;
    position = to;
  }
  snippet += text.slice(position, end);
  const collapsed = snippet.replace(/\s+/gu, ' ').trim();
  return `${start > 0 ? '…' : ''}${collapsed}${end < text.length ? '…' : ''}`;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

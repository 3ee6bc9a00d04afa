import { truncateText } from '@compaction/strategy-kit';

/**
 * Cuts a text so that `countText` gives at most `tokens`, keeping its beginning. Uses a binary search on the
 * length, so it works with any estimator.
 */
export function cutToTokens(text: string, tokens: number, countText: (text: string) => number): string {
  if (countText(text) <= tokens) return text;
  const suffix = ' [...]';
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (countText(text.slice(0, middle) + suffix) <= tokens) low = middle;
    else high = middle - 1;
  }
  return low === 0 ? '' : text.slice(0, low) + suffix;
}

/**
 * Shortens a text so that `countText` gives at most `tokens`, keeping its beginning and its end (for a
 * summary: the goals and the next step) around a note of how much was left out (core's `truncateText`, the
 * cut every strategy uses). Returns `''` when not even
 * the note fits. Uses a binary search on the kept length, so it works with any estimator.
 */
export function shortenMiddleToTokens(
  text: string,
  tokens: number,
  countText: (text: string) => number,
): string {
  if (countText(text) <= tokens) return text;
  let low = -1;
  let high = text.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (countText(truncateText(text, middle)) <= tokens) low = middle;
    else high = middle - 1;
  }
  return low === -1 ? '' : truncateText(text, low);
}

/** The first non-empty line of a text, trimmed and cut to `characters` (with `…` when cut). */
export function firstLine(text: string, characters: number): string {
  const line =
    text
      .split('\n')
      .map((part) => part.trim())
      .find((part) => part.length > 0) ?? '';
  return line.length <= characters ? line : `${line.slice(0, characters)}…`;
}

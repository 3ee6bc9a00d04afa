import { InvalidMessagesError, type MessageIssue } from '@compaction/core';

/**
 * Checks the list a converter reads before converting it: throws an `InvalidMessagesError` with `notAList`
 * when it is not an array, else one that lists every issue `check` reports, so a caller fixes all of them at
 * once instead of one per call.
 */
export function assertEntries<Entry>(
  entries: readonly Entry[],
  notAList: string,
  check: (entry: Entry, index: number, issues: MessageIssue[]) => void,
): void {
  if (!Array.isArray(entries)) {
    throw new InvalidMessagesError({ issues: [{ index: -1, path: '', message: notAList }] });
  }
  const issues: MessageIssue[] = [];
  entries.forEach((entry, index) => {
    check(entry, index, issues);
  });
  if (issues.length > 0) throw new InvalidMessagesError({ issues });
}

/** The issue of an entry that is not plain JSON: the converters promise a lossless round trip of JSON only. */
export function notPlainJsonIssue(index: number): MessageIssue {
  return { index, path: '', message: 'must be plain JSON (no functions, NaN, cycles or class instances)' };
}

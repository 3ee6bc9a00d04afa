import { InvalidMessagesError } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { assertEntries, notPlainJsonIssue } from './assert-entries.js';

const positive = (
  entry: number,
  index: number,
  issues: { index: number; path: string; message: string }[],
) => {
  if (entry <= 0) issues.push({ index, path: '', message: 'must be positive' });
};

function thrown(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('assertEntries', () => {
  it('accepts a list whose entries have no issue, and reads each entry once', () => {
    const seen: number[] = [];
    assertEntries([3, 1, 2], 'expected a list', (entry) => {
      seen.push(entry);
    });
    expect(seen).toEqual([3, 1, 2]);
  });

  it('throws the given message for a value that is not an array', () => {
    const error = thrown(() => assertEntries({} as unknown as number[], 'expected a list', positive));
    expect(InvalidMessagesError.isInstance(error)).toBe(true);
    expect((error as InvalidMessagesError).issues).toEqual([
      { index: -1, path: '', message: 'expected a list' },
    ]);
  });

  it('lists the issues of every entry, in order, in one error', () => {
    const error = thrown(() => assertEntries([1, -1, 2, 0], 'expected a list', positive));
    expect((error as InvalidMessagesError).issues).toEqual([
      { index: 1, path: '', message: 'must be positive' },
      { index: 3, path: '', message: 'must be positive' },
    ]);
  });
});

describe('notPlainJsonIssue', () => {
  it('names the entry and says what plain JSON excludes', () => {
    expect(notPlainJsonIssue(4)).toEqual({
      index: 4,
      path: '',
      message: 'must be plain JSON (no functions, NaN, cycles or class instances)',
    });
  });
});

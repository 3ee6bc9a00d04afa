import { describe, expect, it } from 'vitest';
import { assistant, calls, results, system, user } from './__fixtures__/messages.js';
import { groupTurns } from './group-turns.js';

describe('groupTurns', () => {
  it('keeps an assistant tool call with all of its results, including results split over messages', () => {
    const messages = [
      system('s'),
      user('u'),
      calls('a', 'b'),
      results('a'),
      results('b'),
      assistant('done'),
      user('next'),
    ];
    expect(groupTurns(messages)).toEqual([
      { start: 0, end: 1 },
      { start: 1, end: 2 },
      { start: 2, end: 5 },
      { start: 5, end: 6 },
      { start: 6, end: 7 },
    ]);
  });

  it('keeps a message marked joinsPrevious, and the results of its calls, in the turn before it', () => {
    const joining = <M extends ReturnType<typeof calls>>(message: M): M => ({
      ...message,
      metadata: { compaction: { joinsPrevious: true } },
    });
    const messages = [
      user('u'),
      calls('a'),
      results('a'),
      joining(calls('b')),
      results('b'),
      joining(assistant('closes the code execution')),
      user('next'),
      joining(assistant('a joining message after a user message joins it too')),
    ];
    expect(groupTurns(messages)).toEqual([
      { start: 0, end: 1 },
      { start: 1, end: 6 },
      { start: 6, end: 8 },
    ]);
  });

  it('returns nothing for an empty history', () => {
    expect(groupTurns([])).toEqual([]);
  });
});

import { InvalidMessagesError } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAnswers } from './check-answers.js';

const vocabulary = { call: 'tool call', result: 'result', callsPath: 'tool_calls', answerPath: 'toolCallId' };
const ids = fc.uniqueArray(fc.constantFrom<string>('a', 'b', 'c', 'd', 'e'), { maxLength: 5 });

describe('checkAnswers', () => {
  it('accepts exactly the answers that each answer a pending call once, leaving none open when they close the turn', () => {
    fc.assert(
      fc.property(
        ids,
        fc.array(fc.constantFrom<string>('a', 'b', 'c', 'd', 'e', 'f')),
        fc.boolean(),
        (pending, answered, closesTurn) => {
          const valid =
            answered.every((id) => pending.includes(id)) &&
            new Set(answered).size === answered.length &&
            (!closesTurn || pending.every((id) => answered.includes(id)));
          const check = () => checkAnswers(pending, { callIds: answered, closesTurn }, vocabulary);
          if (valid) expect(check).not.toThrow();
          else expect(check).toThrow(InvalidMessagesError);
        },
      ),
    );
  });

  it('names the unanswered calls and the stray answers in the words of the API', () => {
    const error = (() => {
      try {
        checkAnswers(['call_1', 'call_2'], { callIds: ['call_2', 'call_9'], closesTurn: true }, vocabulary);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(InvalidMessagesError.isInstance(error)).toBe(true);
    expect((error as InvalidMessagesError).issues).toEqual([
      { index: 1, path: 'toolCallId', message: 'call_9 answers no pending tool call' },
      { index: -1, path: 'tool_calls', message: 'tool call call_1 has no result; add one first' },
    ]);
  });
});

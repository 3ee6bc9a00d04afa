import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assistant, calls, conversation, results, user } from '../__fixtures__/messages.js';
import { InvalidMessagesError } from '../errors/invalid-messages-error.js';
import type { Message } from '../messages/message.js';
import { assertValidHistory, needsNoRepair, repairHistory, repairToolPairing } from './repair-history.js';

/** What the whole repair pass says: nothing when it would change nothing and reports no damage. */
function repairFinds(messages: readonly Message[]): 'nothing' | 'damage' {
  try {
    const { repairs } = repairToolPairing(messages, { orphanedResults: 'error', missingResults: 'error' });
    return repairs.length === 0 ? 'nothing' : 'damage';
  } catch (error) {
    if (error instanceof InvalidMessagesError) return 'damage';
    throw error;
  }
}

// Few ids, so that reused calls, duplicate, early, late and orphaned results all come up often.
const ids = fc
  .subarray(['a', 'b', 'c'], { minLength: 0, maxLength: 3 })
  .chain((chosen) => fc.shuffledSubarray(chosen));
const message: fc.Arbitrary<Message> = fc.oneof(
  fc.constant(user('u')),
  fc.constant(assistant('ok')),
  ids.map((chosen) => calls(...chosen)),
  ids.map((chosen) => results(...chosen)),
);
// Turns that follow the pairing rules, so that the valid side is well covered too.
const pairedTurn = fc
  .uniqueArray(fc.string({ minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 })
  .chain((turnIds) =>
    fc
      .integer({ min: 1, max: turnIds.length })
      .map((split) => [
        calls(...turnIds),
        results(...turnIds.slice(0, split)),
        ...(split < turnIds.length ? [results(...turnIds.slice(split))] : []),
      ]),
  );

const history = fc.oneof(
  fc.array(message, { maxLength: 8 }),
  fc
    .array(
      fc.oneof(
        pairedTurn,
        message.map((single) => [single]),
      ),
      { maxLength: 6 },
    )
    .map((parts) => parts.flat()),
);

describe('needsNoRepair', () => {
  it('accepts valid histories, including calls still waiting in the last turn and empty tool messages', () => {
    expect(needsNoRepair(conversation(5))).toBe(true);
    expect(needsNoRepair([user('u'), calls('a', 'b'), results('a')])).toBe(true);
    expect(needsNoRepair([user('u'), calls('a', 'b'), results('b'), results('a'), user('next')])).toBe(true);
    expect(needsNoRepair([user('u'), results(), assistant('ok')])).toBe(true);
    expect(needsNoRepair([])).toBe(true);
  });

  it('rejects every kind of damage repairHistory repairs', () => {
    expect(needsNoRepair([user('u'), calls('a'), user('x')])).toBe(false);
    expect(needsNoRepair([user('u'), calls('a'), user('x'), results('a')])).toBe(false);
    expect(needsNoRepair([user('u'), results('ghost')])).toBe(false);
    expect(needsNoRepair([calls('a'), results('a'), results('a')])).toBe(false);
    expect(needsNoRepair([calls('a'), results('a'), calls('a'), results('a')])).toBe(false);
    expect(needsNoRepair([calls('a', 'a'), results('a', 'a')])).toBe(false);
    expect(needsNoRepair([results('a'), calls('a')])).toBe(false);
    expect(needsNoRepair([results('a'), calls('a'), results('a')])).toBe(false);
  });

  it('agrees with the full repair on random histories, valid and damaged', () => {
    fc.assert(
      fc.property(history, (messages) => {
        const fast = needsNoRepair(messages);
        expect(fast).toBe(repairFinds(messages) === 'nothing');
        // A check leaves nothing behind: the same answer twice in a row.
        expect(needsNoRepair(messages)).toBe(fast);
        if (fast) expect(() => assertValidHistory(messages)).not.toThrow();
        else expect(() => assertValidHistory(messages)).toThrow(InvalidMessagesError);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('repairHistory', () => {
  it('returns what the whole repair pass returns, with the same messages unchanged, when it takes its shortcut', () => {
    fc.assert(
      fc.property(history, (messages) => {
        const repaired = repairHistory(messages);
        const full = repairToolPairing(messages);
        expect(repaired).toEqual(full);
        repaired.messages.forEach((repairedMessage, index) => {
          if (full.messages[index] === messages[index]) expect(repairedMessage).toBe(messages[index]);
        });
        expect(repaired.messages).not.toBe(messages);
      }),
      { numRuns: 1000 },
    );
  });
});

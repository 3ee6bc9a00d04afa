import { BudgetUnreachableError, createTokenCounter, type ToolResultPart } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deepFreeze, historyArbitrary } from './__fixtures__/history-arbitrary.js';
import { assembleWithinLimit } from './assemble-within-limit.js';
import { assembleKeptTurns, type RemovalMarkerSettings } from './kept-turns.js';
import { shortenToolResult } from './shorten-tool-result.js';
import { fillRoomWithTurn, shortenTurn } from './shorten-turn.js';
import { keepUserTurnFirst, planTurns } from './turn-plan.js';

const markers: RemovalMarkerSettings = {
  markers: true,
  text: (count) => `[${count} removed]`,
  round: 1,
  strategy: 'test',
};

describe('the kit helpers', () => {
  it('never change their inputs: the history, the plan and the kept turns stay as they were', () => {
    fc.assert(
      fc.property(
        historyArbitrary,
        fc.infiniteStream(fc.boolean()),
        fc.integer({ min: 0, max: 400 }),
        (history, keepTurn, room) => {
          const original = structuredClone(history);
          const messages = deepFreeze(history);
          const counter = createTokenCounter();
          const plan = planTurns(messages, counter);
          const planBefore = structuredClone(plan);
          const kept = Uint8Array.from(plan.turns, () => (keepTurn.next().value ? 1 : 0));
          const keptBefore = kept.slice();
          const replacements = new Map(
            plan.turns.flatMap((turn, turnIndex) => {
              const shortened = shortenTurn(messages, turn, counter, room, markers);
              fillRoomWithTurn(messages, turn, counter, { room, target: room * 4 }, markers);
              return shortened === undefined ? [] : [[turnIndex, shortened] as const];
            }),
          );
          keepUserTurnFirst(messages, plan, kept, Math.floor(plan.turns.length / 2));
          assembleKeptTurns(messages, plan, kept, markers, replacements);
          try {
            assembleWithinLimit({ messages, plan, kept, replacements, markers }, counter, {
              limit: room,
              target: room,
            });
          } catch (error) {
            if (!BudgetUnreachableError.isInstance(error)) throw error;
          }
          for (const message of messages) {
            for (const part of message.content) {
              if (part.type === 'tool-result') shortenToolResult(part as ToolResultPart, room, 'test');
            }
          }
          expect(messages).toEqual(original);
          expect(plan).toEqual(planBefore);
          expect(kept).toEqual(keptBefore);
        },
      ),
    );
  });
});

import { createTokenCounter, repairHistory, toolCallsOf, verifyCompaction } from '@compaction/core';
import { groupTurns } from '@compaction/strategy-kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultConformanceRuns } from './conformance.js';
import { conversationArbitrary } from './conversation-arbitrary.js';

// Properties of core's turn grouping and repair over the suite's own generators.
describe('core invariants', () => {
  it('groupTurns covers every message once and keeps each tool result with its call', () => {
    fc.assert(
      fc.property(conversationArbitrary(), (messages) => {
        const turns = groupTurns(messages);
        let next = 0;
        for (const turn of turns) {
          expect(turn.start).toBe(next);
          next = turn.end;
          const ids = new Set(
            messages
              .slice(turn.start, turn.end)
              .flatMap((message) => toolCallsOf(message).map((call) => call.toolCallId)),
          );
          for (const message of messages.slice(turn.start, turn.end)) {
            if (message.role === 'tool')
              for (const part of message.content) expect(ids.has(part.toolCallId)).toBe(true);
          }
        }
        expect(next).toBe(messages.length);
      }),
      { numRuns: defaultConformanceRuns },
    );
  });

  it('repairHistory leaves valid histories as the same objects', () => {
    fc.assert(
      fc.property(conversationArbitrary(), (messages) => {
        const { messages: repaired, repairs } = repairHistory(messages);
        expect(repairs).toEqual([]);
        expect(repaired).toHaveLength(messages.length);
        for (const [index, message] of repaired.entries()) expect(message).toBe(messages[index]);
      }),
      { numRuns: defaultConformanceRuns },
    );
  });

  it('repairHistory turns shuffled histories into ones that keep tool pairing, losing no result', () => {
    fc.assert(
      fc.property(conversationArbitrary(), fc.integer({ min: 0, max: 1000 }), (messages, seed) => {
        // Move one tool message somewhere later, away from its call.
        const toolIndexes = messages.flatMap((message, index) => (message.role === 'tool' ? [index] : []));
        if (toolIndexes.length === 0) return;
        const from = toolIndexes[seed % toolIndexes.length]!;
        const damaged = [...messages];
        const [moved] = damaged.splice(from, 1);
        damaged.splice(Math.min(damaged.length, from + 1 + (seed % 3)), 0, moved!);
        const { messages: repaired } = repairHistory(damaged);
        const violations = verifyCompaction({
          before: repaired,
          after: repaired,
          counter: createTokenCounter(),
        });
        expect(violations).toEqual([]);
        const resultIds = (list: typeof messages) =>
          list
            .flatMap((message) =>
              message.role === 'tool' ? message.content.map((part) => part.toolCallId) : [],
            )
            .sort();
        expect(resultIds(repaired)).toEqual(resultIds(messages));
      }),
      { numRuns: defaultConformanceRuns },
    );
  });
});

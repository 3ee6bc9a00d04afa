import { findMessageIssues, type Message, toolCallsOf } from '@compaction/core';
import { findPlanState } from '@compaction/core/working-state';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { latestPlanProblem, planConversationArbitrary } from './conformance-plan.js';

describe('planConversationArbitrary', () => {
  it('generates valid conversations whose latest plan call findPlanState finds', () => {
    fc.assert(
      fc.property(planConversationArbitrary(), (messages) => {
        expect(findMessageIssues(messages)).toEqual([]);
        const calls = messages.flatMap(toolCallsOf);
        expect(findPlanState(messages).length > 0).toBe(calls.length > 0);
      }),
      { numRuns: 50 },
    );
  });
});

describe('latestPlanProblem', () => {
  it('names the plan message missing or changed, and accepts an equal copy', () => {
    fc.assert(
      fc.property(
        planConversationArbitrary().filter((messages) => findPlanState(messages).length > 0),
        (messages) => {
          const [callIndex] = findPlanState(messages);
          expect(
            latestPlanProblem(
              messages,
              messages.map((message) => structuredClone(message)),
            ),
          ).toBeUndefined();
          const without = messages.filter((_, index) => index !== callIndex);
          expect(latestPlanProblem(messages, without)).toMatch(/latest plan call \(message \d+/);
          const changed: Message[] = messages.map((message, index) =>
            index === callIndex
              ? ({ ...message, content: [{ type: 'text', text: 'no plan' }] } as Message)
              : message,
          );
          expect(latestPlanProblem(messages, changed)).toMatch(/dropped or changed/);
        },
      ),
      { numRuns: 30 },
    );
  });
});

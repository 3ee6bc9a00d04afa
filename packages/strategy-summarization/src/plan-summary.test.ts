import {
  BudgetUnreachableError,
  type CompactionInput,
  createTokenCounter,
  isPinned,
  latestUserMessageIndex,
  type Message,
} from '@compaction/core';
import { firstUserMessageIndex } from '@compaction/strategy-kit';
import { conversationArbitrary, deepFreeze } from '@compaction/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codingHistory } from './__fixtures__/summaries.js';
import { planSummary } from './plan-summary.js';
import { resolveSummarizationOptions } from './summarization-options.js';

const options = resolveSummarizationOptions({});

function inputAt(messages: readonly Message[], share: number): CompactionInput {
  const counter = createTokenCounter();
  const target = Math.floor(counter.estimate(messages) * share);
  return { messages, counter, budget: { limit: target, target }, trigger: 'auto', round: 1 };
}

describe('planSummary', () => {
  it('needs no summary for a history at or under the target, and returns it whole', () => {
    const messages = codingHistory(4);
    const decision = planSummary(inputAt(messages, 1), options);
    expect(decision.kind).toBe('no-summary');
    if (decision.kind !== 'no-summary') return;
    expect(decision.output.details).toEqual({ summarized: false, reason: 'under-target' });
    expect(decision.output.messages).toEqual(messages);
    for (const [index, message] of decision.output.messages.entries()) expect(message).toBe(messages[index]);
  });

  it('keeps the head and the newest turns, summarizes the older turns, and puts the summary before the task', () => {
    const messages = codingHistory(12);
    const decision = planSummary(inputAt(messages, 0.4), options);
    expect(decision.kind).toBe('summarize');
    if (decision.kind !== 'summarize') return;
    const { plan } = decision;
    const keptMessages = plan.kept.map((item) => item.message);
    expect(keptMessages.slice(0, 2)).toEqual(messages.slice(0, 2));
    expect(keptMessages.at(-1)).toBe(messages.at(-1));
    // The oldest tool turns go to the summary, in their order, right after the task.
    expect(plan.evicted).toEqual(messages.slice(2, 2 + plan.evicted.length));
    expect(plan.evicted.length).toBeGreaterThan(0);
    expect(plan.summarizedMessages).toBe(plan.evicted.length);
    expect(plan.task).toBe(messages[1]);
    expect(plan.latestRequest).toBe(messages.at(-1));
    expect(plan.positions).toEqual({ taskIndex: 1, spanStart: 2, startsWithUser: true });
    expect(plan.round).toBe(1);
    expect(plan.summaryRoom).toBeGreaterThan(0);
  });

  it('splits any history into kept and summarized messages, never summarizing a protected one or changing its input', () => {
    fc.assert(
      fc.property(
        conversationArbitrary(),
        fc.double({ min: 0.05, max: 0.9, noNaN: true }),
        (history, share) => {
          const messages = deepFreeze(history);
          let decision: ReturnType<typeof planSummary>;
          try {
            decision = planSummary(inputAt(messages, share), options);
          } catch (error) {
            if (BudgetUnreachableError.isInstance(error)) return;
            throw error;
          }
          if (decision.kind !== 'summarize') return;
          const { plan } = decision;
          const evicted = new Set(plan.evicted);
          const kept = new Set(plan.kept.map((item) => item.message));
          const task = firstUserMessageIndex(messages);
          const latest = latestUserMessageIndex(messages);
          messages.forEach((message, index) => {
            if (evicted.has(message)) {
              expect(kept.has(message)).toBe(false);
              expect(
                message.role === 'system' || isPinned(message) || index === task || index === latest,
              ).toBe(false);
            }
          });
          // Kept messages stay in their original order.
          const keptIndexes = plan.kept.map((item) => item.index);
          expect(keptIndexes).toEqual([...keptIndexes].sort((left, right) => left - right));
          // Every input message is kept (as is or shortened), summarized, or an earlier summary merged in.
          const accounted = plan.kept.length + plan.evicted.length;
          expect(accounted).toBeGreaterThanOrEqual(messages.length - plan.mergedSummaries);
        },
      ),
    );
  });
});

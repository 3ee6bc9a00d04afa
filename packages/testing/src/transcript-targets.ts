import {
  CompactionError,
  type CompactionStrategy,
  createTokenCounter,
  isPinned,
  latestUserMessageIndex,
  type Message,
  openingIndexes,
  type TokenCounter,
  verifyCompaction,
} from '@compaction/core';
import { firstUserMessageIndex } from '@compaction/strategy-kit';
import { describe, expect, it } from 'vitest';
import { loadTranscripts, missingTranscriptsMessage } from './transcripts/index.js';

/** Shares of each transcript's size the real-transcript tests compact to. */
export const targetShares = [0.5, 0.25, 0.1] as const;

/** Tokens of what no strategy may remove: system and pinned messages, the opening, the task, the newest request. */
export function requiredTokens(messages: readonly Message[], counter: TokenCounter): number {
  const opening = new Set(openingIndexes(messages));
  const task = firstUserMessageIndex(messages);
  const latest = latestUserMessageIndex(messages);
  let tokens = 0;
  messages.forEach((message, index) => {
    if (
      message.role === 'system' ||
      isPinned(message) ||
      opening.has(index) ||
      index === task ||
      index === latest
    ) {
      tokens += counter.countMessage(message);
    }
  });
  return tokens;
}

/**
 * Registers one test per real transcript: at each target share (as a hard limit too), the result must be at
 * or under the target and keep every rule, or, only when the messages no strategy may remove are themselves
 * over the target, the strategy must say so with a `BudgetUnreachableError`.
 */
export function describeTranscriptTargets(name: string, strategy: CompactionStrategy): void {
  const transcripts = loadTranscripts();
  describe.skipIf(transcripts.length === 0)(`${name} on the real transcripts`, () => {
    it.each(transcripts.map((transcript) => [transcript.name, transcript] as const))(
      '%s at 50%, 25% and 10% of its size',
      async (_, transcript) => {
        const counter = createTokenCounter();
        const total = counter.estimate(transcript.messages);
        const required = requiredTokens(transcript.messages, counter);
        for (const share of targetShares) {
          const target = Math.floor(total * share);
          const budget = { limit: target, target };
          try {
            const output = await strategy.compact({
              messages: transcript.messages,
              counter,
              budget,
              trigger: 'auto',
              round: 1,
            });
            const violations = verifyCompaction({
              before: transcript.messages,
              after: output.messages,
              counter,
              limit: target,
            });
            expect(violations, `${share}`).toEqual([]);
            expect(counter.estimate(output.messages)).toBeLessThanOrEqual(target);
          } catch (error) {
            if (!CompactionError.isInstance(error) || error.code !== 'core/budget-unreachable') throw error;
            expect(required, `${transcript.name} at ${share} threw ${error.message}`).toBeGreaterThan(target);
          }
        }
      },
    );
  });
  if (transcripts.length === 0) {
    it.skip(`${name} on the real transcripts: ${missingTranscriptsMessage}`, () => {});
  }
}

import {
  BudgetUnreachableError,
  CompactionError,
  type Message,
  TokenCounter,
  verifyCompaction,
} from '@compaction/core';
import {
  allowedShortfall,
  deepFreeze,
  hugeResultConversationArbitrary,
  protectedTokens,
} from '@compaction/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { summarizingProvider } from './__fixtures__/summaries.js';
import { createSummarization } from './create-summarization.js';

/** The default share of the target kept as verbatim recent turns. */
const recentShare = 0.3;
/** What the verbatim head and the summary message may take of the target for the recent share to be due. */
const smallHead = 0.1;

/**
 * Summarization ends below its target by design: the summarized span becomes one short summary. What it must
 * not do is end far below it without cause. Its verbatim recent turns take `recentShare` of the target when
 * the history has that much beyond its protected turns and those are small; a huge tool result among them
 * is shortened to fill that share rather than summarized with everything older. The allowance is the one of
 * every strategy (`allowedShortfall`): the slack, one turn's calls and text, a few tokens per gap. On reachable targets (the protected turns and room for a summary
 * under the target) it never throws; on others only `BudgetUnreachableError`, naming the target.
 */
describe('summarization on generated histories with one huge tool result', () => {
  it('meets reachable targets and keeps its recent share of them (200 runs)', {
    timeout: 600_000,
  }, async () => {
    const strategy = createSummarization({ provider: summarizingProvider() });
    await fc.assert(
      fc.asyncProperty(
        // Results up to 400,000 characters: the summarizer's requests are rendered from them, run after run.
        hugeResultConversationArbitrary({ maxCharacters: 400_000 }),
        fc.double({ min: 0.02, max: 0.8, noNaN: true }),
        fc.boolean(),
        async (messages, share, strictLimit) => {
          const counter = new TokenCounter();
          const total = counter.estimate(messages);
          const target = Math.floor(total * share);
          if (target < 1 || total <= target) return;
          const limit = strictLimit ? target : Math.floor((target + total) / 2);
          const required = protectedTokens(messages, counter);
          const input = deepFreeze(structuredClone(messages)) as Message[];
          let after: Message[];
          try {
            after = (
              await strategy.compact({
                messages: input,
                counter,
                budget: { limit, target },
                trigger: 'auto',
                round: 1,
              })
            ).messages;
          } catch (error) {
            if (!CompactionError.isInstance(error)) throw error;
            expect(BudgetUnreachableError.isInstance(error), error.message).toBe(true);
            expect((error as BudgetUnreachableError).target).toBe(target);
            // Room for the protected turns and a summary's header: what may not be removed is over it.
            expect(required + 64, error.message).toBeGreaterThan(target);
            return;
          }
          expect(verifyCompaction({ before: input, after, counter, limit })).toEqual([]);
          const tokens = counter.estimate(after);
          expect(tokens).toBeLessThanOrEqual(limit);
          if (required > target * smallHead || total - required < target) return;
          const allowance = allowedShortfall(input, after, counter, target);
          expect(tokens).toBeGreaterThanOrEqual(recentShare * target - allowance);
        },
      ),
      { numRuns: 200 },
    );
  });
});

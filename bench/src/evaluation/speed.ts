import { createTokenCounter, type Message, resolveBudget } from '@compaction/core';
import type { Policy } from './policies.js';
import { medianMilliseconds } from './timing.js';
import type { EvaluationWindow } from './windows.js';

/** The median time of one policy's strategy on one history. */
export interface SpeedResult {
  history: string;
  policy: Policy;
  messages: number;
  tokens: number;
  medianMs: number;
  /** The strategy threw (for example: it could not get under the limit); the time is until it did. */
  failed: boolean;
}

/**
 * Times one call of a policy's strategy on a whole history, with the budget the policy has at `window`
 * (its limit and target), the token counter warm as after the Compactor's check, and a fresh strategy
 * (and scripted summarizer) for every run.
 */
export async function timePolicy(
  policy: Policy,
  history: { name: string; messages: readonly Message[] },
  window: EvaluationWindow,
  runs: number,
): Promise<SpeedResult> {
  const counter = createTokenCounter();
  const tokens = counter.count(history.messages);
  const { limit, target } = resolveBudget(policy.budget(window.contextWindow));
  let failed = false;
  const medianMs = await medianMilliseconds(
    runs,
    () => policy.create(counter).strategy,
    async (strategy) => {
      try {
        await strategy.compact({
          messages: history.messages,
          counter,
          budget: { limit, target },
          trigger: 'auto',
          round: 1,
        });
      } catch {
        failed = true;
      }
    },
  );
  return { history: history.name, policy, messages: history.messages.length, tokens, medianMs, failed };
}

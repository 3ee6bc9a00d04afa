/**
 * Whether a job is within a contender's reach, decided before anything is timed: a job out of reach is not
 * posed (and the report says why), so that every job that is posed must be done, checked, or fail the bench.
 */
import {
  BudgetUnreachableError,
  type CompactionStrategy,
  createTokenCounter,
  latestUserMessageIndex,
  type Message,
} from '@compaction/core';

/**
 * The smallest history a strategy makes of `messages`: what it returns when asked for 1 token, or the best it
 * reports when it throws that it cannot get there. Truncation keeps every message, for example, so half of a
 * short session with a long task is beyond it.
 */
export async function smallestResult(
  strategy: CompactionStrategy,
  messages: readonly Message[],
): Promise<number> {
  const counter = createTokenCounter();
  const limit = counter.count(messages);
  try {
    const output = await strategy.compact({
      messages,
      counter,
      budget: { limit, target: 1 },
      trigger: 'auto',
      round: 1,
    });
    return counter.count(output.messages);
  } catch (error) {
    if (BudgetUnreachableError.isInstance(error)) return error.best;
    throw error;
  }
}

/**
 * The smallest valid history `trimMessages` (`strategy: "last"`, `includeSystem`, `startOn: "human"`) can
 * keep: the system messages and everything from the newest user message on. It cannot keep the task at the
 * start without everything after it, so this is also its best on a history whose only request is the first.
 */
export function smallestTrim(messages: readonly Message[]): number {
  const counter = createTokenCounter();
  const newestUser = latestUserMessageIndex(messages);
  const system = messages.filter((message, index) => message.role === 'system' && index < newestUser);
  return counter.count(system) + counter.count(messages.slice(Math.max(0, newestUser)));
}

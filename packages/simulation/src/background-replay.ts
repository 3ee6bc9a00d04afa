import type { CompactionStrategy, Compactor, TokenCounter } from '@compaction/core';
import { addBilled, billCompactionCall, emptyBilled } from './billing.js';
import type { MeteredProvider } from './metered-provider.js';
import { type BilledTokens, costOf, type PriceModel } from './price-model.js';

/** The replay's strategy, and a wait for the compactions it runs in the background. */
export interface WatchedStrategy {
  strategy: CompactionStrategy;
  /** Resolves once no compaction of the strategy runs and the background jobs have taken their results. */
  settle(): Promise<void>;
}

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * With background compaction, the strategy as it is but watched: the replay lets each background job end
 * before the next model call (a model call takes longer than a compaction), so a run is deterministic for
 * deterministic strategies and measures what background compaction costs, not the time it saves.
 */
export function watchBackground(strategy: CompactionStrategy, background: boolean): WatchedStrategy {
  if (!background) return { strategy, settle: async () => undefined };
  const running = new Set<Promise<unknown>>();
  const compact: CompactionStrategy['compact'] = (input) => {
    const result = strategy.compact(input);
    running.add(result);
    const done = () => void running.delete(result);
    result.then(done, done);
    return result;
  };
  const settle = async () => {
    // A job starts on a later turn of the event loop; after its strategy, it takes its result in microtasks.
    do {
      await nextTurn();
      await Promise.allSettled([...running]);
    } while (running.size > 0);
    await nextTurn();
  };
  return { strategy: { ...strategy, compact }, settle };
}

/** What the background compactions that were never used cost: each one's model calls, billed uncached. */
export interface DiscardedCompactions extends BilledTokens {
  count: number;
  inputTokens: number;
  cost: number;
}

/**
 * Bills the model calls of every background compaction the Compactor dropped (`discarded` events): a result
 * never used still cost its summarizer call. The calls are read from the metered provider when the job is
 * dropped; a job dropped while its call runs has that call billed with the next compaction.
 */
export function meterDiscarded(
  compactor: Compactor,
  provider: MeteredProvider | undefined,
  counter: TokenCounter,
  prices: PriceModel,
): DiscardedCompactions {
  const totals: DiscardedCompactions = { count: 0, inputTokens: 0, cost: 0, ...emptyBilled() };
  compactor.on('background', (event) => {
    if (event.status !== 'discarded') return;
    const usage = provider?.takeUsage() ?? { inputTokens: 0, made: [] };
    const billed = usage.made
      .map((call) => billCompactionCall(call, [], false, counter, prices))
      .reduce(addBilled, emptyBilled());
    Object.assign(totals, addBilled(totals, billed));
    totals.count++;
    totals.inputTokens += usage.inputTokens;
    totals.cost += costOf(billed, prices);
  });
  return totals;
}

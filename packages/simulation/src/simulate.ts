import {
  type BackgroundSettings,
  type BudgetOptions,
  type CompactionEvent,
  type CompactionStrategy,
  type CompactionTriggerPolicy,
  type Compactor,
  createCompactor,
  createFastEstimator,
  createTokenCounter,
  type Message,
  type TokenCounter,
  type TokenEstimator,
} from '@compaction/core';
import { type DiscardedCompactions, meterDiscarded, watchBackground } from './background-replay.js';
import { addBilled, bill, billCompactionCall, emptyBilled } from './billing.js';
import type { MeteredProvider } from './metered-provider.js';
import { type BilledTokens, costOf, defaultPriceModel, type PriceModel } from './price-model.js';

/** Options of {@link simulate}. */
export interface SimulateOptions {
  strategy: CompactionStrategy;
  fallback?: CompactionStrategy;
  budget: BudgetOptions;
  /** Counts the context; default the fast estimator. */
  estimator?: TokenEstimator;
  /** Prices; missing fields take {@link defaultPriceModel}'s. */
  prices?: Partial<PriceModel>;
  /** The provider the strategy calls, metered, so that compactions made by a model are billed. */
  provider?: MeteredProvider;
  /** Called after each message is replayed, for progress bars. */
  onProgress?: (replayed: number, total: number) => void;
  /** A trigger policy for the Compactor, built on the replay's clock (the time of the call being made). */
  triggerPolicy?: (now: () => number) => CompactionTriggerPolicy;
  /**
   * Applied to each message as it arrives, before it is first sent (such as capping tool results); the run
   * without compaction gets the messages as they are.
   */
  ingest?: (message: Message) => Message;
  /**
   * When each message was written, in milliseconds since the epoch (`undefined` where not recorded): a call
   * is made at the time of the assistant message it produced. Where it is not recorded, calls are taken to
   * come `secondsBetweenCalls` after the previous one.
   */
  times?: readonly (number | undefined)[];
  /** Seconds between calls where `times` records none. Default 30, well within a 5-minute cache. */
  secondsBetweenCalls?: number;
  /**
   * The Compactor's `background` setting: compactions start from `prepareAt` on, each taken to end before the
   * next model call, and one whose result is never used is billed all the same (`discardedCompactions`).
   */
  background?: BackgroundSettings;
  /** The Compactor's `planTools` setting: the plan tools whose latest call is pinned (default the agents'). */
  planTools?: readonly string[] | false;
}

/** One compaction during a simulation. */
export interface SimulatedCompaction {
  /** The strategy that ran; for a pipeline, the stages that ran, joined with ` → `. */
  strategy: string;
  tokensBefore: number;
  tokensAfter: number;
  messagesBefore: number;
  messagesAfter: number;
  durationMs: number;
  /** Tokens the strategy's own model calls used (0 for deterministic strategies). */
  inputTokens: number;
  outputTokens: number;
  /**
   * How those calls are billed: a call that continues the conversation (its first message is the first of
   * the last request sent to the model) as a model call is, the prefix it shares with that request a cache
   * read while the cache is warm; any other call uncached. Usage the provider reported with cache figures is
   * taken as reported.
   */
  billed: BilledTokens;
  /** What those calls cost, in dollars. */
  cost: number;
}

/** One model call of the replay: the context sent before an assistant message. */
export interface SimulationStep {
  /** 1-based number of the call. */
  step: number;
  /** Index, in the replayed conversation, of the assistant message this call produced. */
  messageIndex: number;
  contextTokens: number;
  contextMessages: number;
  /** What the context would count without compaction. */
  uncompactedTokens: number;
  billed: BilledTokens;
  cost: number;
  /** The compaction made just before this call, if any. */
  compaction?: SimulatedCompaction;
  /** Set when the context was over the limit and could not be compacted under it. */
  overLimit?: boolean;
}

/** Totals of a run, with or without compaction. */
export interface SimulationTotals extends BilledTokens {
  /** Input tokens sent over all calls (cached or not). */
  inputTokens: number;
  cost: number;
  peakContextTokens: number;
  /** Calls whose context was over the limit. */
  overLimitSteps: number;
}

/** The outcome of {@link simulate}. */
export interface SimulationResult {
  steps: SimulationStep[];
  prices: PriceModel;
  limit: number;
  trigger: number | null;
  target: number;
  /** With compaction: the calls, plus the compactions' own model calls. */
  totals: SimulationTotals & {
    compactions: number;
    compactionInputTokens: number;
    compactionOutputTokens: number;
    compactionCost: number;
    compactionDurationMs: number;
    /** With `background`: background compactions dropped, never used (0 without it). */
    discardedCompactions: number;
    /** What their model calls cost, in dollars: counted in `compactionCost` and `cost` too. */
    discardedCompactionCost: number;
  };
  /** The same conversation replayed without compaction. */
  baseline: SimulationTotals;
}

/**
 * Replays a conversation as an agent loop, message by message: at each assistant message the model is
 * called with the whole context (after compacting, when the trigger fires), and its answer is appended.
 * Billing follows prompt caching: the part of a request that repeats the previous request's prefix (the
 * same message objects in order) is a cache read, the rest a cache write; a compaction that rewrites the
 * history therefore costs a fresh cache write. Also replays the conversation without compaction, for
 * comparison. Deterministic for deterministic strategies.
 */
export async function simulate(
  messages: readonly Message[],
  options: SimulateOptions,
): Promise<SimulationResult> {
  const prices: PriceModel = { ...defaultPriceModel, ...options.prices };
  const counter = createTokenCounter(options.estimator ?? createFastEstimator());
  const gap = (options.secondsBetweenCalls ?? defaultSecondsBetweenCalls) * 1000;
  let now = 0;
  let previousCall: number | undefined;
  const triggerPolicy = options.triggerPolicy?.(() => now);
  const watched = watchBackground(options.strategy, options.background !== undefined);
  const compactor = createCompactor({
    ...(triggerPolicy === undefined ? {} : { triggerPolicy }),
    ...(options.background === undefined ? {} : { background: options.background }),
    ...(options.planTools === undefined ? {} : { planTools: options.planTools }),
    strategy: watched.strategy,
    ...(options.fallback === undefined ? {} : { fallback: options.fallback }),
    budget: options.budget,
    counter,
    ...(options.provider === undefined ? {} : { provider: options.provider }),
  });
  const { limit, trigger, target } = compactor.budget;
  const steps: SimulationStep[] = [];
  const compacted = emptyTotals();
  const baseline = emptyTotals();
  const compactionTotals = emptyCompactionTotals();
  let history: Message[] = [];
  let baselinePrevious: readonly Message[] = [];
  const cache: CacheState = { previous: [], warm: false };
  const pending = meterCompactions(compactor, options.provider, counter, prices, cache);
  const discarded = meterDiscarded(compactor, options.provider, counter, prices);

  for (const [index, message] of messages.entries()) {
    if (message.role === 'assistant' && history.length > 0) {
      now = options.times?.[index] ?? (previousCall === undefined ? 0 : previousCall + gap);
      // A cache entry not read for its lifetime is gone: the whole request is written again.
      cache.warm = previousCall !== undefined && (now - previousCall) / 1000 <= prices.cacheLifetimeSeconds;
      previousCall = now;
      let overLimit = false;
      try {
        history = (await compactor.prepare(history)).messages;
      } catch {
        overLimit = true;
      }
      // A failed attempt may still have used the summarizer: it is billed with the next compaction.
      const compaction = pending.shift();
      const answerTokens = counter.countMessage(message);
      const sent = bill(history, cache.warm ? cache.previous : [], counter, prices, answerTokens);
      const uncompacted = messages.slice(0, index);
      const uncompactedBill = bill(
        uncompacted,
        cache.warm ? baselinePrevious : [],
        counter,
        prices,
        answerTokens,
      );
      addTo(compacted, sent);
      addTo(baseline, uncompactedBill);
      if (sent.contextTokens > limit) overLimit = true;
      if (uncompactedBill.contextTokens > limit) baseline.overLimitSteps++;
      if (overLimit) compacted.overLimitSteps++;
      if (compaction !== undefined) addCompaction(compactionTotals, compaction);
      steps.push({
        step: steps.length + 1,
        messageIndex: index,
        contextTokens: sent.contextTokens,
        contextMessages: history.length,
        uncompactedTokens: uncompactedBill.contextTokens,
        billed: sent.billed,
        cost: sent.cost,
        ...(compaction === undefined ? {} : { compaction }),
        ...(overLimit ? { overLimit: true } : {}),
      });
      cache.previous = history;
      baselinePrevious = uncompacted;
      await watched.settle();
    }
    history = [...history, options.ingest?.(message) ?? message];
    options.onProgress?.(index + 1, messages.length);
  }

  // A background job still held at the end was never used either: dropping it bills it.
  compactor.forget('default');
  return {
    steps,
    prices,
    limit,
    trigger,
    target,
    totals: withCompactions(compacted, compactionTotals, discarded),
    baseline,
  };
}

/** The last request sent to the model, and whether the cache still holds it at the call being prepared. */
interface CacheState {
  previous: readonly Message[];
  warm: boolean;
}

/**
 * Listens for the Compactor's compactions and queues each, with what its own model calls (read from the
 * metered provider) are billed against the cache as it is when the compaction ends.
 */
function meterCompactions(
  compactor: Compactor,
  provider: MeteredProvider | undefined,
  counter: TokenCounter,
  prices: PriceModel,
  cache: Readonly<CacheState>,
): SimulatedCompaction[] {
  const pending: SimulatedCompaction[] = [];
  compactor.on('end', (event) => {
    const usage = provider?.takeUsage() ?? { inputTokens: 0, outputTokens: 0, made: [] };
    const billed = usage.made
      .map((call) => billCompactionCall(call, cache.previous, cache.warm, counter, prices))
      .reduce(addBilled, emptyBilled());
    pending.push({
      strategy: strategyOf(event),
      tokensBefore: event.tokensBefore,
      tokensAfter: event.tokensAfter,
      messagesBefore: event.messagesBefore,
      messagesAfter: event.messagesAfter,
      durationMs: event.durationMs,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      billed,
      cost: costOf(billed, prices),
    });
  });
  return pending;
}

/**
 * The strategy a compaction ran, as the report names it: for a pipeline, the stages that ran (the names it
 * records in `details.stages`), joined with ` → `.
 */
function strategyOf(event: CompactionEvent): string {
  const stages = event.details?.stages;
  if (event.strategy !== 'pipeline' || !Array.isArray(stages)) return event.strategy;
  return stages.map((stage) => String((stage as { name?: unknown }).name)).join(' → ');
}

/** What the compactions of a run used, as they add up. */
interface CompactionTotals {
  compactions: number;
  compactionInputTokens: number;
  compactionOutputTokens: number;
  compactionCost: number;
  compactionDurationMs: number;
  billed: BilledTokens;
}

function emptyCompactionTotals(): CompactionTotals {
  return {
    compactions: 0,
    compactionInputTokens: 0,
    compactionOutputTokens: 0,
    compactionCost: 0,
    compactionDurationMs: 0,
    billed: emptyBilled(),
  };
}

function addCompaction(totals: CompactionTotals, compaction: SimulatedCompaction): void {
  totals.compactions++;
  totals.compactionInputTokens += compaction.inputTokens;
  totals.compactionOutputTokens += compaction.outputTokens;
  totals.compactionCost += compaction.cost;
  totals.billed = addBilled(totals.billed, compaction.billed);
  totals.compactionDurationMs += compaction.durationMs;
}

/** The run's totals with compaction: its calls plus the compactions' own model calls. */
function withCompactions(
  calls: SimulationTotals,
  used: CompactionTotals,
  discarded: DiscardedCompactions,
): SimulationResult['totals'] {
  const billed = addBilled(used.billed, discarded);
  const compactionCost = used.compactionCost + discarded.cost;
  const compactionInputTokens = used.compactionInputTokens + discarded.inputTokens;
  return {
    ...calls,
    compactions: used.compactions,
    compactionInputTokens,
    compactionOutputTokens: used.compactionOutputTokens + discarded.outputTokens,
    compactionCost,
    compactionDurationMs: used.compactionDurationMs,
    discardedCompactions: discarded.count,
    discardedCompactionCost: discarded.cost,
    inputTokens: calls.inputTokens + compactionInputTokens,
    uncachedInputTokens: calls.uncachedInputTokens + billed.uncachedInputTokens,
    cacheReadTokens: calls.cacheReadTokens + billed.cacheReadTokens,
    cacheWriteTokens: calls.cacheWriteTokens + billed.cacheWriteTokens,
    outputTokens: calls.outputTokens + billed.outputTokens,
    cost: calls.cost + compactionCost,
  };
}

/** Seconds between calls where the replayed conversation records no time. */
export const defaultSecondsBetweenCalls = 30;

function emptyTotals(): SimulationTotals {
  return {
    inputTokens: 0,
    uncachedInputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 0,
    cost: 0,
    peakContextTokens: 0,
    overLimitSteps: 0,
  };
}

function addTo(
  totals: SimulationTotals,
  call: { contextTokens: number; billed: BilledTokens; cost: number },
) {
  totals.inputTokens += call.contextTokens;
  totals.uncachedInputTokens += call.billed.uncachedInputTokens;
  totals.cacheReadTokens += call.billed.cacheReadTokens;
  totals.cacheWriteTokens += call.billed.cacheWriteTokens;
  totals.outputTokens += call.billed.outputTokens;
  totals.cost += call.cost;
  totals.peakContextTokens = Math.max(totals.peakContextTokens, call.contextTokens);
}

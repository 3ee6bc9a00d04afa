import {
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
import type { MeteredCall, MeteredProvider } from './metered-provider.js';
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
  const compactor = createCompactor({
    ...(triggerPolicy === undefined ? {} : { triggerPolicy }),
    strategy: options.strategy,
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
    }
    history = [...history, options.ingest?.(message) ?? message];
    options.onProgress?.(index + 1, messages.length);
  }

  return {
    steps,
    prices,
    limit,
    trigger,
    target,
    totals: withCompactions(compacted, compactionTotals),
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
function withCompactions(calls: SimulationTotals, compactions: CompactionTotals): SimulationResult['totals'] {
  const { billed, ...counts } = compactions;
  return {
    ...calls,
    ...counts,
    inputTokens: calls.inputTokens + counts.compactionInputTokens,
    uncachedInputTokens: calls.uncachedInputTokens + billed.uncachedInputTokens,
    cacheReadTokens: calls.cacheReadTokens + billed.cacheReadTokens,
    cacheWriteTokens: calls.cacheWriteTokens + billed.cacheWriteTokens,
    outputTokens: calls.outputTokens + billed.outputTokens,
    cost: calls.cost + counts.compactionCost,
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

/** Bills one call: the context sent, against the previous call's context for the cached prefix. */
function bill(
  context: readonly Message[],
  previous: readonly Message[],
  counter: TokenCounter,
  prices: PriceModel,
  outputTokens: number,
) {
  let shared = 0;
  while (shared < context.length && shared < previous.length && context[shared] === previous[shared])
    shared++;
  const contextTokens = counter.estimate(context);
  const cached = prices.caching ? counter.estimate(context.slice(0, shared)) : 0;
  const billed: BilledTokens = {
    uncachedInputTokens: prices.caching ? 0 : contextTokens,
    cacheReadTokens: cached,
    cacheWriteTokens: prices.caching ? contextTokens - cached : 0,
    outputTokens,
  };
  return { contextTokens, billed, cost: costOf(billed, prices) };
}

/**
 * Bills one call a compaction made. Usage reported with cache figures is taken as reported. A call that
 * continues the conversation (its first message is the first of the last request sent to the model: the
 * same object) is billed as a model call, by {@link bill}, against that request while the cache is warm.
 * Any other call is a request of its own, billed uncached: nothing in it was sent before.
 */
function billCompactionCall(
  call: MeteredCall,
  previous: readonly Message[],
  warm: boolean,
  counter: TokenCounter,
  prices: PriceModel,
): BilledTokens {
  const { reported } = call;
  if (reported?.cacheReadTokens !== undefined || reported?.cacheWriteTokens !== undefined) {
    const read = reported.cacheReadTokens ?? 0;
    const write = reported.cacheWriteTokens ?? 0;
    return {
      uncachedInputTokens: Math.max(0, call.inputTokens - read - write),
      cacheReadTokens: read,
      cacheWriteTokens: write,
      outputTokens: call.outputTokens,
    };
  }
  const continues = prices.caching && previous.length > 0 && call.messages[0] === previous[0];
  if (!continues) {
    return {
      uncachedInputTokens: call.inputTokens,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: call.outputTokens,
    };
  }
  return bill(call.messages, warm ? previous : [], counter, prices, call.outputTokens).billed;
}

function emptyBilled(): BilledTokens {
  return { uncachedInputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0 };
}

function addBilled(total: BilledTokens, call: BilledTokens): BilledTokens {
  return {
    uncachedInputTokens: total.uncachedInputTokens + call.uncachedInputTokens,
    cacheReadTokens: total.cacheReadTokens + call.cacheReadTokens,
    cacheWriteTokens: total.cacheWriteTokens + call.cacheWriteTokens,
    outputTokens: total.outputTokens + call.outputTokens,
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

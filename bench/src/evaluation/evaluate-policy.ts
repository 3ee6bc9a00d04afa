import {
  type Budget,
  type BudgetOptions,
  createTokenCounter,
  type Message,
  resolveBudget,
} from '@compaction/core';
import {
  type PriceModel,
  type SimulationResult,
  type SimulationTotals,
  simulate,
} from '@compaction/simulation';
import { firstUserMessageIndex } from '@compaction/strategy-kit';
import { finalContext, recordOutputs } from './final-context.js';
import { type LostProbe, lossReasons } from './loss-reasons.js';
import type { Policy } from './policies.js';
import type { Probe } from './probe.js';
import { type RecallCost, recallCost } from './recall-cost.js';
import { measureRetention, type Retention } from './retention.js';
import type { EvaluationWindow } from './windows.js';

/** One policy run on one transcript at one window. */
export interface EvaluationRow {
  transcript: string;
  coding: boolean;
  policy: Policy;
  window: EvaluationWindow;
  /** The resolved budget: no request may count more than `limit`; `trigger` is null when disabled. */
  limit: number;
  trigger: number | null;
  /** Model calls replayed. */
  steps: number;
  compactions: number;
  /** Calls whose context was over the limit (the provider would have refused them). */
  overLimitSteps: number;
  retention: Retention;
  /** The probes lost, with why. */
  lost: LostProbe[];
  /** What the recall calls that bring back the lost but recoverable probes would add, at the end of the run. */
  recall: RecallCost;
  /** Tokens of the context at the end of the run, and of the whole uncompacted history. */
  finalTokens: number;
  uncompactedTokens: number;
  peakContextTokens: number;
  /** Input tokens sent over all calls, summarizer calls included (what is billed without caching). */
  inputTokens: number;
  /** Input tokens weighted by their price with prompt caching: input-price equivalents. */
  billedInputTokens: number;
  /**
   * Tokens of every message sent, once, as it arrived (capped where the policy caps): what the cache must be
   * written with at least, whatever the policy.
   */
  firstSentTokens: number;
  /** Tokens of the head every call repeats: the messages up to the original task (system prompt, task). */
  headTokens: number;
  /** The same two for the run without compaction. */
  baselineInputTokens: number;
  baselineBilledInputTokens: number;
  /** Dollars, input and output, summarizer included. */
  cost: number;
  baselineCost: number;
  /** The simulation itself, for charts. */
  simulation: SimulationResult;
}

/** Input tokens weighted by price: uncached at 1, cache reads and writes at their price over the input price. */
export function billedInput(totals: SimulationTotals, prices: PriceModel): number {
  return (
    totals.uncachedInputTokens +
    (totals.cacheReadTokens * prices.cacheReadPerMillion) / prices.inputPerMillion +
    (totals.cacheWriteTokens * prices.cacheWritePerMillion) / prices.inputPerMillion
  );
}

/** A window no history reaches. */
const unlimitedWindow = 1_000_000_000;

/**
 * The same trigger and target, in tokens, with no limit. The Compactor refuses a result over the limit and
 * sends the history unchanged; the systems the reference policies come from do not check, they send what
 * the policy produced. So reference policies run without a limit, and calls over the real one are counted
 * afterwards, as for every policy.
 */
function unenforced(budget: Budget): BudgetOptions {
  return {
    contextWindow: unlimitedWindow,
    reservedOutputTokens: 0,
    safetyMargin: 0,
    trigger: budget.trigger ?? false,
    target: budget.target,
    minimumMessages: budget.minimumMessages,
  };
}

/** What {@link evaluatePolicy} is given. */
export interface PolicyCase {
  transcript: { name: string; messages: readonly Message[]; callTimes?: readonly (number | undefined)[] };
  coding: boolean;
  probes: readonly Probe[];
  policy: Policy;
  window: EvaluationWindow;
}

/**
 * Replays a transcript through `@compaction/simulation` with one policy, then measures which probes the
 * final context still holds.
 */
export async function evaluatePolicy(evaluation: PolicyCase): Promise<EvaluationRow> {
  const { transcript, policy, window } = evaluation;
  const counter = createTokenCounter();
  const run = policy.create(counter);
  // Compaction's own policies run as users with a store get them: archiving, with handles in placeholders.
  const recording = recordOutputs(run.strategy, policy.kind !== 'reference');
  const budgetOptions = policy.budget(window.contextWindow);
  const budget = resolveBudget(budgetOptions);
  const result = await simulate(transcript.messages, {
    strategy: recording.strategy,
    budget: policy.kind === 'reference' ? unenforced(budget) : budgetOptions,
    ...(run.provider === undefined ? {} : { provider: run.provider }),
    ...(run.triggerPolicy === undefined ? {} : { triggerPolicy: run.triggerPolicy }),
    ...(run.ingest === undefined ? {} : { ingest: run.ingest }),
    ...(transcript.callTimes === undefined ? {} : { times: transcript.callTimes }),
  });
  // What the model was sent: the messages as they arrived, capped where the policy caps them.
  const arrived = run.ingest === undefined ? transcript.messages : transcript.messages.map(run.ingest);
  const context = finalContext(arrived, result, recording.outputs, counter);
  const overLimitSteps = result.steps.filter((step) => step.contextTokens > budget.limit).length;
  const retention = measureRetention(evaluation.probes, context, recording.archived);
  return {
    transcript: transcript.name,
    coding: evaluation.coding,
    policy,
    window,
    limit: budget.limit,
    trigger: budget.trigger,
    steps: result.steps.length,
    compactions: result.totals.compactions,
    overLimitSteps,
    retention,
    lost: lossReasons(retention.lost, transcript.messages, context),
    recall: recallCost(retention.lost, context, recording.archived, counter, result.prices),
    finalTokens: counter.count(context),
    uncompactedTokens: counter.count(transcript.messages),
    peakContextTokens: result.totals.peakContextTokens,
    firstSentTokens: counter.estimate(arrived.slice(0, result.steps.at(-1)?.messageIndex ?? 0)),
    headTokens: counter.estimate(
      transcript.messages.slice(0, firstUserMessageIndex(transcript.messages) + 1),
    ),
    inputTokens: result.totals.inputTokens,
    billedInputTokens: billedInput(result.totals, result.prices),
    baselineInputTokens: result.baseline.inputTokens,
    baselineBilledInputTokens: billedInput(result.baseline, result.prices),
    cost: result.totals.cost,
    baselineCost: result.baseline.cost,
    simulation: result,
  };
}

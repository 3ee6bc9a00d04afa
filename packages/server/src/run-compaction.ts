import {
  type ArchivedItem,
  type BudgetOptions,
  BudgetUnreachableError,
  type CompactionEvent,
  type CompactionStore,
  createFastEstimator,
  createTokenCounter,
  type Message,
  type Provider,
  resolveBudget,
  type StrategyRegistry,
  type TokenEstimator,
} from '@compaction/core';
import { requestOverheadTokens } from '@compaction/formats';
import { type StageReport, stagesOf } from './compaction-stages.js';
import { createConfiguredCompactor } from './config/configured-compactor.js';
import type { CompactionSettings } from './config/resolve-settings.js';
import { usageError } from './errors/cli-error.js';
import { TargetUnreachableError } from './errors/target-unreachable-error.js';
import { formatCount } from './output/format-numbers.js';
import { createProvider } from './providers/create-provider.js';

/** The context window used when neither a flag, the config nor a provider's model gives one. */
export const defaultContextWindow = 200_000;

/** Where `compact` aims when no target is given: half of the input (or the budget's target if lower). */
export const defaultInputShare = 0.5;

/** What one compaction did. */
export interface CompactionReport {
  compacted: boolean;
  messages: Message[];
  strategy: string[];
  before: { messages: number; tokens: number };
  after: { messages: number; tokens: number };
  /**
   * The target the messages aimed for (what the request carries besides them set aside) and the hard limit of
   * the whole request, in tokens.
   */
  target: number;
  limit: number;
  contextWindow: number;
  /** Whether the result is at or under the target (a result between the target and the limit is kept). */
  targetReached: boolean;
  stages: StageReport[];
  /**
   * Whether a fallback produced the result: the Compactor's fallback strategy after the strategy failed, or
   * summarization's extractive digest after the summarizer failed. `failures` says what failed and why.
   */
  usedFallback: boolean;
  /** What produced the result instead: the fallback strategy's name, or `extractive-digest`. */
  fallback?: string;
  failures: string[];
  durationMs: number;
  /**
   * Why nothing was compacted, when nothing was: core's reasons (`under-target`, `cancelled`...),
   * `stored-context`, or `nothing-to-compact` (see {@link CompactMessagesOptions.skipNothingToCompact}).
   */
  skipped?: string;
  event?: CompactionEvent;
  /** With a store: what this compaction archived for recall (none when nothing was compacted). */
  archived?: ArchivedItem[];
}

/** Options of {@link compactMessages}. */
export interface CompactMessagesOptions {
  settings: CompactionSettings;
  registry: StrategyRegistry;
  estimator?: TokenEstimator;
  /** An already built provider; otherwise built from the settings when they name one. */
  provider?: Provider;
  /** Read a fractional target as a share of the input (the `compact` command), not of the limit. */
  targetOfInput?: boolean;
  /**
   * With no target given, a history that fits the limit and from which the strategies remove nothing (a single
   * message, or only the task and the newest turn) is reported as `skipped: 'nothing-to-compact'` instead of
   * failing to reach the default target: the user asked for no number, so there is nothing unmet. A target
   * the user gave, or a history over the limit, still fails with {@link TargetUnreachableError}.
   */
  skipNothingToCompact?: boolean;
  /** Compacts even a history at or under the target (core's `CompactOptions.force`). */
  force?: boolean;
  instructions?: string;
  environment?: NodeJS.ProcessEnv;
  /**
   * Records the compaction here, with what the strategies removed archived for recall (the Compactor's
   * `archive`), under `sessionId`.
   */
  store?: CompactionStore;
  /** The session the compaction is recorded under. Default the Compactor's, `default`. */
  sessionId?: string;
  /**
   * The rest of the request the messages came from: its tool definitions and instructions take room in the
   * window too, so the messages are compacted to what fits beside them.
   */
  envelope?: Record<string, unknown>;
  /**
   * The request field through which the messages continue context the provider stores (Responses
   * `previous_response_id` or `conversation`): they are then not compacted (`skipped: 'stored-context'`).
   */
  storedContext?: string;
}

/** The provider named by the settings, if any. */
export async function providerOf(
  settings: CompactionSettings,
  environment?: NodeJS.ProcessEnv,
): Promise<Provider | undefined> {
  return settings.provider === undefined ? undefined : createProvider(settings.provider, environment);
}

/** The context window: from the budget, else the provider's model, else {@link defaultContextWindow}. */
export function contextWindowOf(settings: CompactionSettings, provider: Provider | undefined): number {
  return (
    settings.budget.contextWindow ??
    (provider === undefined ? undefined : provider.modelLimits(settings.provider?.model).contextWindow) ??
    defaultContextWindow
  );
}

/**
 * Compacts a history once (a manual compaction) with the strategies the settings name, and reports what
 * happened. Without a given target it aims for half of the input, so `compact` always makes progress on a
 * history that can shrink.
 */
export async function compactMessages(
  messages: readonly Message[],
  options: CompactMessagesOptions,
): Promise<CompactionReport> {
  const { settings, registry } = options;
  const provider = options.provider ?? (await providerOf(settings, options.environment));
  const counter = createTokenCounter(options.estimator ?? createFastEstimator());
  const inputTokens = counter.count(messages);
  const overheadTokens = requestOverheadTokens(options.envelope, counter.estimator);
  const contextWindow = contextWindowOf(settings, provider);
  const budget = manualBudget(settings.budget, contextWindow, {
    inputTokens,
    overheadTokens,
    targetOfInput: options.targetOfInput === true,
  });
  const { store } = options;
  const archiving = store === undefined ? {} : { store, archive: true };
  const compactor = await createConfiguredCompactor(settings.config, registry, provider, {
    budget,
    counter,
    ...archiving,
  });
  if (options.storedContext !== undefined) {
    return unchangedReport(messages, inputTokens, compactor.budget, 0, {
      strategy: settings.strategyNames,
      contextWindow: compactor.budget.contextWindow,
      skipped: 'stored-context',
      durationMs: 0,
    });
  }
  const started = performance.now();
  let result: Awaited<ReturnType<typeof compactor.compact>>;
  try {
    result = await compactor.compact(messages, {
      trigger: 'manual',
      overheadTokens,
      ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      ...(options.force === true ? { force: true } : {}),
    });
  } catch (error) {
    if (!BudgetUnreachableError.isInstance(error)) throw error;
    const { target: aimed, limit } = compactor.budget;
    const unreachable = new TargetUnreachableError({
      budget: { target: aimed, targetGiven: settings.targetGiven, limit, contextWindow },
      cause: error,
      strategy: settings.strategyNames,
    });
    // Within the limit a strategy fails only when it made no progress at all: nothing it may remove.
    const nothingRemovable =
      !settings.targetGiven && unreachable.best <= limit && inputTokens + overheadTokens <= limit;
    if (!(options.skipNothingToCompact === true && nothingRemovable)) throw unreachable;
    const report = unchangedReport(messages, inputTokens, compactor.budget, overheadTokens, {
      strategy: settings.strategyNames,
      contextWindow,
      skipped: 'nothing-to-compact',
      durationMs: performance.now() - started,
    });
    return store === undefined ? report : { ...report, archived: [] };
  }
  const durationMs = performance.now() - started;
  const afterTokens = counter.count(result.messages);
  const stages = result.event === undefined ? [] : stagesOf(result.event);
  const fellBack = result.event?.usedFallback === true;
  const digests = stages.filter((stage) => stage.fallback !== undefined);
  const failures = (result.event?.failures ?? []).map(
    (failure) =>
      `${failure.strategy}: ${failure.error ?? failure.violations?.map((violation) => violation.message).join('; ')}`,
  );
  for (const stage of digests) failures.push(`${stage.name}: ${stage.failure ?? 'the summarizer failed'}`);
  const fallback = fellBack ? result.event?.strategy : digests.length > 0 ? digests[0]!.fallback : undefined;
  return {
    compacted: result.compacted,
    messages: result.messages,
    strategy: settings.strategyNames,
    before: { messages: messages.length, tokens: inputTokens },
    after: { messages: result.messages.length, tokens: afterTokens },
    // The messages' share of the target: the report's counts are the messages'.
    target: compactor.budget.target - overheadTokens,
    limit: compactor.budget.limit,
    contextWindow,
    targetReached: afterTokens + overheadTokens <= compactor.budget.target,
    stages,
    usedFallback: fellBack || digests.length > 0,
    ...(fallback === undefined ? {} : { fallback }),
    failures,
    durationMs,
    ...(result.skipped === undefined ? {} : { skipped: result.skipped }),
    ...(result.event === undefined ? {} : { event: result.event }),
    ...(store === undefined ? {} : { archived: result.archived ?? [] }),
  };
}

/**
 * The budget of a manual compaction, no trigger: the given target, a share of the input with `targetOfInput`, or
 * by default half of the input (or the budget's target if lower), always beside what the rest of the request
 * takes. A given target above the limit is refused.
 */
function manualBudget(
  options: Partial<BudgetOptions>,
  contextWindow: number,
  input: { inputTokens: number; overheadTokens: number; targetOfInput: boolean },
): BudgetOptions {
  const { inputTokens, overheadTokens } = input;
  // The budget without the given target first: its limit decides what a given target may be.
  const { target: givenTarget, ...budgetWithoutTarget } = options;
  const base: BudgetOptions = { ...budgetWithoutTarget, contextWindow, trigger: false };
  const { target: budgetTarget, limit } = resolveBudget(base);
  let target = givenTarget;
  if (target === undefined) {
    // Half of the messages, beside what the rest of the request takes.
    target = Math.max(
      2,
      Math.min(budgetTarget, Math.floor(inputTokens * defaultInputShare) + overheadTokens),
    );
  } else if (input.targetOfInput && target <= 1) {
    // A share of an input larger than the window is more than fits: the result must fit the limit anyway.
    target = Math.max(2, Math.min(limit, Math.floor(inputTokens * target) + overheadTokens));
  } else if (target > limit) {
    throw usageError(
      `the target of ${formatCount(target)} tokens is above the limit of ${formatCount(limit)} ` +
        `(a ${formatCount(contextWindow)}-token context window less reserved output and margin): ` +
        'lower --target or raise --context-window',
    );
  }
  return { ...base, target };
}

/**
 * The report of a compaction that left the messages as they came: messages that continue context the provider
 * stores (the history the model sees is upstream and only the new items are here, so leaving one out would
 * lose it), or a history with nothing the strategies may remove.
 */
function unchangedReport(
  messages: readonly Message[],
  tokens: number,
  budget: { target: number; limit: number },
  overheadTokens: number,
  details: { strategy: string[]; contextWindow: number; skipped: string; durationMs: number },
): CompactionReport {
  const size = { messages: messages.length, tokens };
  const target = budget.target - overheadTokens;
  return {
    compacted: false,
    messages: [...messages],
    strategy: details.strategy,
    before: size,
    after: size,
    target,
    limit: budget.limit,
    contextWindow: details.contextWindow,
    targetReached: tokens <= target,
    stages: [],
    usedFallback: false,
    failures: [],
    durationMs: details.durationMs,
    skipped: details.skipped,
  };
}

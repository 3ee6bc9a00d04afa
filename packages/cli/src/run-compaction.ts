import {
  type BudgetOptions,
  type CompactionEvent,
  createCompactor,
  type Message,
  type Provider,
  resolveBudget,
  resolveCompactionConfig,
  type StrategyRegistry,
  TokenCounter,
  type TokenEstimator,
} from '@compaction/core';
import { type StageReport, stagesOf } from './compaction-stages.js';
import type { CompactionSettings } from './config/resolve-settings.js';
import { fastEstimator } from './estimators.js';
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
  /** The target it aimed for and the hard limit, in tokens. */
  target: number;
  limit: number;
  stages: StageReport[];
  /** Whether the fallback strategy produced the result, and why the strategy did not. */
  usedFallback: boolean;
  failures: string[];
  durationMs: number;
  /** Why nothing was compacted, when nothing was. */
  skipped?: string;
  event?: CompactionEvent;
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
  instructions?: string;
  environment?: NodeJS.ProcessEnv;
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
  const counter = new TokenCounter(options.estimator ?? fastEstimator());
  const inputTokens = counter.count(messages);
  const contextWindow = contextWindowOf(settings, provider);
  const base: BudgetOptions = { ...settings.budget, contextWindow, trigger: false };
  const { target: budgetTarget } = resolveBudget(base);
  let target = settings.budget.target;
  if (target === undefined) {
    target = Math.max(2, Math.min(budgetTarget, Math.floor(inputTokens * defaultInputShare)));
  } else if (options.targetOfInput && target <= 1) {
    target = Math.max(2, Math.floor(inputTokens * target));
  }
  const budget: BudgetOptions = { ...base, target };
  const resolved = await resolveCompactionConfig(
    settings.config,
    registry,
    provider === undefined ? {} : { provider },
  );
  const compactor = createCompactor({
    ...resolved,
    budget,
    counter,
    ...(provider === undefined ? {} : { provider }),
  });
  const started = performance.now();
  const result = await compactor.compact(messages, {
    trigger: 'manual',
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
  });
  const durationMs = performance.now() - started;
  const afterTokens = counter.count(result.messages);
  return {
    compacted: result.compacted,
    messages: result.messages,
    strategy: settings.strategyNames,
    before: { messages: messages.length, tokens: inputTokens },
    after: { messages: result.messages.length, tokens: afterTokens },
    target: compactor.budget.target,
    limit: compactor.budget.limit,
    stages: result.event === undefined ? [] : stagesOf(result.event),
    usedFallback: result.event?.usedFallback ?? false,
    failures: (result.event?.failures ?? []).map(
      (failure) =>
        `${failure.strategy}: ${failure.error ?? failure.violations?.map((violation) => violation.message).join('; ')}`,
    ),
    durationMs,
    ...(result.skipped === undefined ? {} : { skipped: result.skipped }),
    ...(result.event === undefined ? {} : { event: result.event }),
  };
}

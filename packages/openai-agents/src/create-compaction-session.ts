import {
  type BudgetOptions,
  type CompactionStrategy,
  type CompactorSettings,
  createStrategyRegistry,
  resolveCompactionConfig,
  type StrategyConfig,
  type StrategyRegistry,
} from '@compaction/core';
import { CompactionSession } from './compaction-session.js';
import type { CompactionSessionOptions } from './compaction-session-settings.js';

/** A strategy as an object, or by name (`tool-result-truncation`, `{ name, options }`, a list run as a pipeline). */
export type StrategyChoice = CompactionStrategy | StrategyConfig | StrategyConfig[];

/** Settings of {@link createCompactionSession}: those of `createCompactor`, with strategies by name too. */
export type CreateCompactionSessionSettings = Omit<CompactorSettings, 'strategy' | 'fallback'> &
  CompactionSessionOptions & {
    /** The strategy that compacts: an object, or by name as a config names it. */
    strategy: StrategyChoice;
    /** Run when the strategy throws or its result breaks a rule; an object or by name. */
    fallback?: StrategyChoice;
    /** The context window and the trigger and target within it; see `createCompactor`. */
    budget: BudgetOptions;
    /**
     * Resolves strategies given by name. Default: a registry that loads `@compaction/strategy-<name>` when it
     * is installed, and otherwise fails with `StrategyNotFoundError` naming the package to install.
     */
    registry?: StrategyRegistry;
  };

/**
 * Creates a {@link CompactionSession}, resolving strategies given by name through core's registry (with the
 * compactor's `provider` for strategies that call a model), as a config file names them.
 *
 * ```ts
 * const session = await createCompactionSession({
 *   strategy: ['tool-result-truncation', 'sliding-window'],
 *   budget: { contextWindow: 128_000 },
 * });
 * ```
 */
export async function createCompactionSession(
  settings: CreateCompactionSessionSettings,
): Promise<CompactionSession> {
  const { strategy, fallback, registry, ...rest } = settings;
  const strategies = registry ?? createStrategyRegistry();
  const provider = settings.provider === undefined ? {} : { provider: settings.provider };
  const resolve = async (choice: StrategyChoice): Promise<CompactionStrategy> =>
    isStrategy(choice)
      ? choice
      : (await resolveCompactionConfig({ strategy: choice }, strategies, provider)).strategy;
  return new CompactionSession({
    ...rest,
    strategy: await resolve(strategy),
    ...(fallback === undefined ? {} : { fallback: await resolve(fallback) }),
  });
}

/** Duck-typed, so a strategy from another copy of core is recognised too. */
function isStrategy(value: unknown): value is CompactionStrategy {
  const candidate = value as Partial<CompactionStrategy> | null;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.compact === 'function';
}

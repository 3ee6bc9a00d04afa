import {
  type CompactionConfig,
  type CompactionStrategy,
  type Compactor,
  type CompactorSettings,
  createCompactor,
  type JSONValue,
  type Provider,
  type ResolvedCompactionConfig,
  resolveCompactionConfig,
  type StrategyRegistry,
} from '@compaction/core';
import { cliTriggerPolicies } from '../config/trigger-policies.js';
import { type StrategyThreads, threadedStrategy } from './threaded-strategy.js';

/**
 * A Compactor running the strategies a config names, as `createConfiguredCompactor` builds it, whose strategy
 * and fallback run on the compaction threads when the history is large (see {@link threadedStrategy}).
 * Without threads, it is that Compactor.
 *
 * A strategy that calls a model stays on the event loop (see {@link runsOnEventLoop}): its time is spent
 * waiting for the model, which does not hold the event loop, and the provider (its client, its abort on a
 * server's stop) is the server's. Only what does not call a model moves.
 */
export async function createThreadedCompactor(
  config: CompactionConfig,
  registry: StrategyRegistry,
  provider: Provider | undefined,
  settings: Omit<CompactorSettings, keyof ResolvedCompactionConfig>,
  threads: StrategyThreads | undefined,
): Promise<Compactor> {
  const given = provider === undefined ? {} : { provider };
  const resolved = await resolveCompactionConfig(config, registry, {
    ...given,
    triggerPolicies: cliTriggerPolicies,
  });
  const onThreads = (strategy: CompactionStrategy, entry: unknown): CompactionStrategy =>
    threads === undefined || runsOnEventLoop(registry, entry)
      ? strategy
      : threadedStrategy(strategy, entry as JSONValue, threads);
  return createCompactor({
    ...resolved,
    strategy: onThreads(resolved.strategy, config.strategy),
    ...(resolved.fallback === undefined ? {} : { fallback: onThreads(resolved.fallback, config.fallback) }),
    ...settings,
    ...given,
  });
}

/**
 * Whether the strategy a config entry names stays on the event loop: when it calls a model, as its definition's
 * `needsProvider` says for its options (a pipeline answers for its stages), since the thread builds strategies
 * without the server's provider. A registry that cannot say keeps every strategy on the event loop, which is
 * always correct, only slower on large histories.
 */
export function runsOnEventLoop(registry: Pick<StrategyRegistry, 'needsProvider'>, entry: unknown): boolean {
  return registry.needsProvider?.(entry) ?? true;
}

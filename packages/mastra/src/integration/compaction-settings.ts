import {
  type CompactionStrategy,
  type Compactor,
  type CompactorSettings,
  createCompactor,
  createPipeline,
  createStrategyRegistry,
  type StrategyConfig,
  type StrategyRegistry,
} from '@compaction/core';

/** A strategy, or strategies by name through a registry (`'tool-result-truncation'`, `{ name, options }`, a list). */
export type StrategySetting = CompactionStrategy | StrategyConfig | StrategyConfig[];

/** Options of the processor besides the compactor. */
export interface CompactionProcessorOptions {
  /** The session compactions are recorded under (events, store, the recall tool's archive). Default `default`. */
  sessionId?: string;
  /**
   * The conversation every call belongs to, when one agent serves one conversation. Without it, a call
   * continues the most recently used conversation whose messages it starts with, or starts a new one.
   */
  conversationId?: string;
}

/** The settings of `createCompactor`, with strategies given by object or by name. */
export type CompactorSettingsByName = Omit<CompactorSettings, 'strategy' | 'fallback'> & {
  strategy: StrategySetting;
  fallback?: StrategySetting;
  /** Resolves strategy names; default `createStrategyRegistry()` (packages `@compaction/strategy-<name>`). */
  registry?: StrategyRegistry;
};

/** What the processor accepts: a compactor, `{ compactor }` with options, or the settings to create one. */
export type CompactionProcessorSettings =
  | ({ compactor: Compactor } & CompactionProcessorOptions)
  | (CompactorSettingsByName & CompactionProcessorOptions);

/** The compactor of the settings, its strategies resolved by name where given so. */
export async function resolveCompactor(settings: CompactionProcessorSettings): Promise<Compactor> {
  if ('compactor' in settings) return settings.compactor;
  const {
    sessionId: _sessionId,
    conversationId: _conversationId,
    registry,
    strategy,
    fallback,
    ...rest
  } = settings;
  let resolvedRegistry = registry;
  const resolve = async (setting: StrategySetting): Promise<CompactionStrategy> => {
    if (isStrategy(setting)) return setting;
    resolvedRegistry ??= createStrategyRegistry();
    const context = settings.provider === undefined ? {} : { provider: settings.provider };
    if (!Array.isArray(setting)) return resolvedRegistry.resolve(setting, context);
    const stages = await Promise.all(setting.map((stage) => resolvedRegistry!.resolve(stage, context)));
    return stages.length === 1 ? stages[0]! : createPipeline(stages);
  };
  return createCompactor({
    ...rest,
    strategy: await resolve(strategy),
    ...(fallback === undefined ? {} : { fallback: await resolve(fallback) }),
  });
}

function isStrategy(setting: StrategySetting): setting is CompactionStrategy {
  return (
    typeof setting === 'object' &&
    !Array.isArray(setting) &&
    typeof (setting as CompactionStrategy).compact === 'function'
  );
}

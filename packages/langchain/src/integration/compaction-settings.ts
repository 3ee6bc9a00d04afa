import {
  type CompactionStore,
  type CompactionStrategy,
  type Compactor,
  type CompactorSettings,
  createCompactor,
  createPipeline,
  createStrategyRegistry,
  type Provider,
  type StrategyConfig,
  type StrategyRegistry,
} from '@compaction/core';

/** A strategy, or strategies by name through the registry (several run as a pipeline, in order). */
export type StrategySetting = CompactionStrategy | StrategyConfig | readonly StrategyConfig[];

/** Settings to create a compactor from, strategies by object or by name. */
export type LangChainCompactorSettings = Omit<CompactorSettings, 'strategy' | 'fallback'> & {
  strategy: StrategySetting;
  fallback?: StrategySetting;
  /** Where strategy names are looked up. Default: `createStrategyRegistry()`, which loads installed packages. */
  registry?: StrategyRegistry;
};

/** What the integrations take beside the compactor. */
export interface LangChainCompactionOptions {
  /**
   * The session compactions are recorded under (events, store, recall). Default: the run's `thread_id`
   * (`configurable.thread_id`, the conversation of a LangGraph checkpointer), else `default`.
   */
  sessionId?: string;
  /**
   * The archive the `recall` tool reads, or `false` for no tool. Default: the `store` of compactor settings
   * with `archive: true`; none for a compactor given as it is.
   */
  recall?: false | { store: CompactionStore; maximumCharacters?: number };
}

/**
 * What the integrations accept: a `Compactor`, `{ compactor }` with options, or the settings to create
 * one (`strategy`, `budget`, ...) with options.
 */
export type LangChainCompactionSettings =
  | Compactor
  | ({ compactor: Compactor } & LangChainCompactionOptions)
  | (LangChainCompactorSettings & LangChainCompactionOptions);

/** The settings resolved: the compactor (made once, on first use: names load packages) and the options. */
export interface ResolvedCompaction {
  compactor: () => Promise<Compactor>;
  sessionId?: string;
  recall?: { store: CompactionStore; maximumCharacters?: number };
  /** The provider of compactor settings: it recognises its own overflow refusals too. */
  provider?: Provider;
}

export function resolveCompaction(settings: LangChainCompactionSettings): ResolvedCompaction {
  if (isCompactor(settings)) return { compactor: () => Promise.resolve(settings) };
  const sessionId = settings.sessionId === undefined ? {} : { sessionId: settings.sessionId };
  if ('compactor' in settings) {
    const { compactor } = settings;
    return { compactor: () => Promise.resolve(compactor), ...sessionId, ...recallOf(settings, undefined) };
  }
  const { sessionId: _session, recall: _recall, registry, strategy, fallback, ...rest } = settings;
  let created: Promise<Compactor> | undefined;
  const compactor = () => {
    created ??= (async () => {
      const names = registry ?? createStrategyRegistry();
      return createCompactor({
        ...rest,
        strategy: await strategyOf(strategy, names),
        ...(fallback === undefined ? {} : { fallback: await strategyOf(fallback, names) }),
      });
    })();
    return created;
  };
  const archive = settings.archive === true && settings.store !== undefined ? settings.store : undefined;
  return {
    compactor,
    ...sessionId,
    ...recallOf(settings, archive),
    ...(settings.provider === undefined ? {} : { provider: settings.provider }),
  };
}

function recallOf(
  options: LangChainCompactionOptions,
  archive: CompactionStore | undefined,
): Pick<ResolvedCompaction, 'recall'> {
  if (options.recall === false) return {};
  if (options.recall !== undefined) return { recall: options.recall };
  return archive === undefined ? {} : { recall: { store: archive } };
}

async function strategyOf(setting: StrategySetting, registry: StrategyRegistry): Promise<CompactionStrategy> {
  if (isStrategy(setting)) return setting;
  if (!Array.isArray(setting)) return registry.resolve(setting as StrategyConfig);
  const stages = await Promise.all(setting.map((stage) => registry.resolve(stage)));
  return stages.length === 1 ? stages[0]! : createPipeline(stages);
}

function isStrategy(setting: StrategySetting): setting is CompactionStrategy {
  return typeof setting === 'object' && !Array.isArray(setting) && 'compact' in setting;
}

/** Duck-typed, so a compactor from another copy of the core package is accepted too. */
function isCompactor(value: unknown): value is Compactor {
  const candidate = value as Partial<Compactor>;
  return (
    typeof candidate.prepare === 'function' &&
    typeof candidate.recover === 'function' &&
    typeof candidate.recordUsage === 'function'
  );
}

/** The session of a run: the option, else the run's thread, else `default`. */
export function sessionOf(sessionId: string | undefined, configurable: unknown): string {
  if (sessionId !== undefined) return sessionId;
  const thread = (configurable as { thread_id?: unknown } | undefined)?.thread_id;
  return typeof thread === 'string' && thread !== '' ? thread : 'default';
}

import type { OptionsSchema } from '../options/options-schema.js';
import type { CompactionStrategy } from './compaction-strategy-v1.js';
import type { Provider } from './provider-v1.js';
import type { StrategyConfig } from './strategy-config.js';

// The registry, the definitions it holds and the context it gives their factories refer to each other, so
// they are declared together: apart, their files would import each other.

/** What a strategy factory may use besides its options. */
export interface StrategyContextV1 {
  /** The registry the strategy was resolved through, to resolve nested strategies (as `pipeline` does). */
  registry: StrategyRegistryV1;
  /** The provider configured for the compaction, for strategies that call an LLM. */
  provider?: Provider;
}

/**
 * What a strategy package default-exports: its name, its options schema and a factory. The registry
 * validates options against the schema (filling in defaults) before it calls `create`.
 */
export interface StrategyDefinitionV1<Options = unknown> {
  readonly specificationVersion: 'v1';
  /** The name configs use, such as `pruning`. Strategy packages are named `@compaction/strategy-<name>`. */
  readonly name: string;
  /** One sentence: what the strategy does. */
  readonly description: string;
  /** JSON Schema of the options, with defaults; published in the config schema. */
  readonly optionsSchema: OptionsSchema;
  /** Builds a strategy from validated options. */
  create(options: Options, context: StrategyContextV1): CompactionStrategy | Promise<CompactionStrategy>;
  /**
   * Optional: whether a strategy built from these validated options calls the provider, so an application
   * can ask for one before it builds anything (the registry's `needsProvider`). Absent, none is needed. The
   * registry is given to ask nested strategies (a fallback, the stages of a pipeline).
   */
  needsProvider?(options: Options, context: { registry: StrategyRegistryV1 }): boolean;
}

/**
 * Maps strategy names to definitions and builds strategies from configs. A name that is not registered is
 * loaded from the package `@compaction/strategy-<name>` (its default export) when installed.
 */
export interface StrategyRegistryV1 {
  readonly specificationVersion: 'v1';
  /** Registers a definition; a later registration under the same name replaces the earlier one. */
  register<Options>(definition: StrategyDefinitionV1<Options>): StrategyRegistryV1;
  /** The registered names, sorted. */
  names(): string[];
  /** The registered definitions, by name. */
  list(): StrategyDefinitionV1<never>[];
  /** The definition for a name, loading its package when it is not registered. */
  definition(name: string): Promise<StrategyDefinitionV1<never>>;
  /** Builds a strategy from a config: resolves the name, validates the options and calls the factory. */
  resolve(config: StrategyConfig, context?: { provider?: Provider }): Promise<CompactionStrategy>;
  /**
   * Whether the strategies of a config entry (a name, `{ name, options }`, or a list, as a config's `strategy`
   * or `fallback`) call the provider, as each registered definition's `needsProvider` answers, so an
   * application can ask for a provider before it builds anything. A name not registered yet is answered by the
   * strategy entries nested in its options. Optional in the spec; core's registries have it.
   */
  needsProvider?(config: unknown): boolean;
}

/** The current strategy context spec. */
export type StrategyContext = StrategyContextV1;
/** The current strategy definition spec. */
export type StrategyDefinition<Options = unknown> = StrategyDefinitionV1<Options>;
/** The current strategy registry spec. */
export type StrategyRegistry = StrategyRegistryV1;

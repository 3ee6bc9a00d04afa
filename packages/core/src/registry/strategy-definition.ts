import type { OptionsSchema } from '../options/options-schema.js';
import type { CompactionStrategy } from '../specs/compaction-strategy-v1.js';
import type { Provider } from '../specs/provider-v1.js';
import type { StrategyRegistry } from './strategy-registry.js';

/** What a strategy factory may use besides its options. */
export interface StrategyContext {
  /** The registry the strategy was resolved through, to resolve nested strategies (as `pipeline` does). */
  registry: StrategyRegistry;
  /** The provider configured for the compaction, for strategies that call an LLM. */
  provider?: Provider;
}

/**
 * What a strategy package default-exports: its name, its options schema and a factory. The registry
 * validates options against the schema (filling in defaults) before it calls `create`.
 */
export interface StrategyDefinition<Options = unknown> {
  readonly specificationVersion: 'v1';
  /** The name configs use, such as `pruning`. Strategy packages are named `@compaction/strategy-<name>`. */
  readonly name: string;
  /** One sentence: what the strategy does. */
  readonly description: string;
  /** JSON Schema of the options, with defaults; published in the config schema. */
  readonly optionsSchema: OptionsSchema;
  /** Builds a strategy from validated options. */
  create(options: Options, context: StrategyContext): CompactionStrategy | Promise<CompactionStrategy>;
}

/**
 * Options of each registered strategy by name. Strategy packages add their own entry by declaration
 * merging, which gives configs typed options per name:
 *
 * ```ts
 * declare module '@compaction/core' {
 *   interface StrategyOptionsByName {
 *     pruning: PruningOptions;
 *   }
 * }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: extended by declaration merging.
export interface StrategyOptionsByName {}

/** Declares a strategy definition with its options type. */
export function defineStrategy<Options>(
  definition: StrategyDefinition<Options>,
): StrategyDefinition<Options> {
  return definition;
}

import type { JSONObject } from '../json.js';

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

/** A strategy in a config: its name alone, or its name and options. */
export type StrategyConfig =
  | string
  | {
      [Name in keyof StrategyOptionsByName]: { name: Name; options?: StrategyOptionsByName[Name] };
    }[keyof StrategyOptionsByName]
  | { name: string; options?: JSONObject };

import type { JSONObject } from '../json.js';
import type { StrategyOptionsByName } from './strategy-definition.js';

/** A strategy in a config: its name alone, or its name and options. */
export type StrategyConfig =
  | string
  | {
      [Name in keyof StrategyOptionsByName]: { name: Name; options?: StrategyOptionsByName[Name] };
    }[keyof StrategyOptionsByName]
  | { name: string; options?: JSONObject };

/** Normalizes a strategy config to its object form. */
export function strategyConfigObject(config: StrategyConfig): { name: string; options?: unknown } {
  return typeof config === 'string' ? { name: config } : config;
}

/** The package that provides a strategy by convention. */
export function strategyPackageName(name: string): string {
  return `@compaction/strategy-${name}`;
}

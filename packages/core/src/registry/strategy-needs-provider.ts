import { validateOptions } from '../options/options-schema.js';
import type { StrategyRegistryV1 } from '../specs/strategy-registry-v1.js';

/**
 * Whether the strategies of a config entry (a name, `{ name, options }`, or a list of them, as a config's
 * `strategy` or `fallback`) call the provider, so that an application can ask for one before it builds
 * anything. Each registered definition answers through its `needsProvider`, given its options validated (with
 * defaults); invalid options answer `false`, and resolving them reports why.
 *
 * A name not registered yet (a package loaded on demand) cannot be asked without loading it; the strategy
 * entries nested in its options (a fallback, stages) are asked instead, and its own factory fails clearly if it
 * needs a provider it was not given.
 */
export function strategyNeedsProvider(registry: StrategyRegistryV1, config: unknown): boolean {
  if (Array.isArray(config)) return config.some((entry) => strategyNeedsProvider(registry, entry));
  const entry = entryOf(config);
  if (entry === undefined) return false;
  const definition = registry.list().find((candidate) => candidate.name === entry.name);
  if (definition === undefined) {
    const { options } = entry;
    if (typeof options !== 'object' || options === null) return false;
    return Object.values(options).some((value) => strategyNeedsProvider(registry, value));
  }
  if (definition.needsProvider === undefined) return false;
  let validated: never;
  try {
    validated = validateOptions<never>(definition.optionsSchema, entry.options, `strategy "${entry.name}"`);
  } catch {
    return false;
  }
  return definition.needsProvider(validated, { registry });
}

/** A strategy entry as a name and options, or `undefined` for anything else. */
function entryOf(config: unknown): { name: string; options: unknown } | undefined {
  if (typeof config === 'string') return { name: config, options: undefined };
  if (typeof config !== 'object' || config === null) return undefined;
  const { name, options } = config as { name?: unknown; options?: unknown };
  return typeof name === 'string' ? { name, options } : undefined;
}

import { StrategyNotFoundError } from '../errors/strategy-not-found-error.js';
import { validateOptions } from '../options/options-schema.js';
import type { CompactionStrategy } from '../specs/compaction-strategy-v1.js';
import type { Provider } from '../specs/provider-v1.js';
import { DefinitionRegistry, type PackageLoader } from './definition-registry.js';
import { type StrategyConfig, strategyConfigObject, strategyPackageName } from './strategy-config.js';
import type { StrategyDefinition } from './strategy-definition.js';

export type { PackageLoader } from './definition-registry.js';

/** Settings of {@link createStrategyRegistry}. */
export interface StrategyRegistrySettings {
  /** Definitions to register up front (the `pipeline` strategy is always registered). */
  definitions?: readonly StrategyDefinition<never>[];
  /**
   * How to load `@compaction/strategy-<name>` for a name that is not registered. Defaults to dynamic
   * `import()`; pass `false` to never load packages (for bundles that must be closed).
   */
  loadPackage?: PackageLoader | false;
}

/**
 * Maps strategy names to definitions and builds strategies from configs. A name that is not registered is
 * loaded from the package `@compaction/strategy-<name>` (its default export) when installed; otherwise
 * resolution fails with {@link StrategyNotFoundError}, which lists the registered names and the package.
 */
export class StrategyRegistry {
  private readonly registry: DefinitionRegistry<StrategyDefinition<never>>;

  constructor(settings: StrategyRegistrySettings = {}) {
    this.registry = new DefinitionRegistry(
      {
        label: 'strategy',
        packageName: strategyPackageName,
        isDefinition: (value): value is StrategyDefinition<never> =>
          typeof (value as Partial<StrategyDefinition>).create === 'function' &&
          typeof (value as Partial<StrategyDefinition>).optionsSchema === 'object',
        notFound: ({ name, registeredNames, packageName, cause }) =>
          new StrategyNotFoundError({ strategyName: name, registeredNames, packageName, cause }),
      },
      settings.loadPackage,
    );
    for (const definition of settings.definitions ?? []) this.register(definition);
  }

  /** Registers a definition; a later registration under the same name replaces the earlier one. */
  register<Options>(definition: StrategyDefinition<Options>): this {
    this.registry.register(definition as StrategyDefinition<never>);
    return this;
  }

  /** The registered names, sorted. */
  names(): string[] {
    return this.registry.names();
  }

  /** The registered definitions. */
  list(): StrategyDefinition<never>[] {
    return this.registry.list();
  }

  /** The definition for a name, loading its package when it is not registered. */
  definition(name: string): Promise<StrategyDefinition<never>> {
    return this.registry.definition(name);
  }

  /** Builds a strategy from a config: resolves the name, validates the options and calls the factory. */
  async resolve(config: StrategyConfig, context: { provider?: Provider } = {}): Promise<CompactionStrategy> {
    const { name, options } = strategyConfigObject(config);
    const definition = await this.definition(name);
    const validated = validateOptions<never>(definition.optionsSchema, options, `strategy "${name}"`);
    return definition.create(validated, { registry: this, ...context });
  }
}

/** Whether a strategy object implements the v1 spec; used to give a clear error for foreign objects. */
export function isCompactionStrategy(value: unknown): value is CompactionStrategy {
  const candidate = value as Partial<CompactionStrategy> | undefined;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.specificationVersion === 'v1' &&
    typeof candidate.name === 'string' &&
    typeof candidate.compact === 'function'
  );
}

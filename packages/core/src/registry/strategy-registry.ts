import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { StrategyNotFoundError } from '../errors/strategy-not-found-error.js';
import { validateOptions } from '../options/options-schema.js';
import type { CompactionStrategy } from '../specs/compaction-strategy-v1.js';
import type { Provider } from '../specs/provider-v1.js';
import { type StrategyConfig, strategyConfigObject, strategyPackageName } from './strategy-config.js';
import type { StrategyDefinition } from './strategy-definition.js';

/** Loads a package by name; the default uses dynamic `import()`. */
export type PackageLoader = (packageName: string) => Promise<unknown>;

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
  private readonly definitions = new Map<string, StrategyDefinition<never>>();
  private readonly loadPackage: PackageLoader | false;

  constructor(settings: StrategyRegistrySettings = {}) {
    this.loadPackage = settings.loadPackage ?? ((packageName) => import(packageName));
    for (const definition of settings.definitions ?? []) this.register(definition);
  }

  /** Registers a definition; a later registration under the same name replaces the earlier one. */
  register<Options>(definition: StrategyDefinition<Options>): this {
    assertDefinition(definition, 'register()');
    this.definitions.set(definition.name, definition as StrategyDefinition<never>);
    return this;
  }

  /** The registered names, sorted. */
  names(): string[] {
    return [...this.definitions.keys()].sort();
  }

  /** The registered definitions. */
  list(): StrategyDefinition<never>[] {
    return this.names().map((name) => this.definitions.get(name)!);
  }

  /** The definition for a name, loading its package when it is not registered. */
  async definition(name: string): Promise<StrategyDefinition<never>> {
    const registered = this.definitions.get(name);
    if (registered !== undefined) return registered;
    const packageName = strategyPackageName(name);
    const notFound = (cause?: unknown) =>
      new StrategyNotFoundError({ strategyName: name, registeredNames: this.names(), packageName, cause });
    if (this.loadPackage === false || !/^[a-z0-9][a-z0-9-]*$/.test(name)) throw notFound();
    let loaded: unknown;
    try {
      loaded = await this.loadPackage(packageName);
    } catch (error) {
      throw notFound(error);
    }
    const definition = (loaded as { default?: unknown } | undefined)?.default;
    assertDefinition(definition, packageName);
    if (definition.name !== name) {
      throw notFound(new Error(`${packageName} exports a strategy named "${definition.name}"`));
    }
    this.register(definition);
    return definition as StrategyDefinition<never>;
  }

  /** Builds a strategy from a config: resolves the name, validates the options and calls the factory. */
  async resolve(config: StrategyConfig, context: { provider?: Provider } = {}): Promise<CompactionStrategy> {
    const { name, options } = strategyConfigObject(config);
    const definition = await this.definition(name);
    const validated = validateOptions<never>(definition.optionsSchema, options, `strategy "${name}"`);
    return definition.create(validated, { registry: this, ...context });
  }
}

function assertDefinition(value: unknown, source: string): asserts value is StrategyDefinition<unknown> {
  const candidate = value as Partial<StrategyDefinition<unknown>> | undefined;
  if (
    candidate === undefined ||
    candidate === null ||
    candidate.specificationVersion !== 'v1' ||
    typeof candidate.name !== 'string' ||
    typeof candidate.create !== 'function' ||
    typeof candidate.optionsSchema !== 'object'
  ) {
    throw new InvalidOptionsError({
      subject: source,
      issues: [
        {
          path: '',
          message: 'is not a v1 strategy definition (specificationVersion, name, optionsSchema, create)',
        },
      ],
    });
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

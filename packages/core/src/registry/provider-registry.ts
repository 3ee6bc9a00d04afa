import { ProviderNotFoundError } from '../errors/provider-not-found-error.js';
import type { JSONObject } from '../json.js';
import { validateOptions } from '../options/options-schema.js';
import type { Provider } from '../specs/provider-v1.js';
import { DefinitionRegistry, type PackageLoader } from './definition-registry.js';
import type { ProviderDefinition } from './provider-definition.js';

/** A provider in a config: the adapter's name and its settings. */
export type ProviderConfig = { name: string } & JSONObject;

/** Settings of {@link createProviderRegistry}. */
export interface ProviderRegistrySettings {
  definitions?: readonly ProviderDefinition<never>[];
  /** How to load `@compaction/provider-<name>`; `false` never loads packages. */
  loadPackage?: PackageLoader | false;
}

/**
 * Maps provider names to adapter definitions, loading `@compaction/provider-<name>` for a name that is not
 * registered, exactly as strategies are resolved.
 */
export class ProviderRegistry {
  private readonly registry: DefinitionRegistry<ProviderDefinition<never>>;

  constructor(settings: ProviderRegistrySettings = {}) {
    this.registry = new DefinitionRegistry(
      {
        label: 'provider',
        packageName: (name) => `@compaction/provider-${name}`,
        isDefinition: (value): value is ProviderDefinition<never> =>
          typeof (value as Partial<ProviderDefinition>).create === 'function' &&
          typeof (value as Partial<ProviderDefinition>).settingsSchema === 'object',
        notFound: ({ name, registeredNames, packageName, cause }) =>
          new ProviderNotFoundError({ providerName: name, registeredNames, packageName, cause }),
      },
      settings.loadPackage,
    );
    for (const definition of settings.definitions ?? []) this.register(definition);
  }

  register<Settings>(definition: ProviderDefinition<Settings>): this {
    this.registry.register(definition as ProviderDefinition<never>);
    return this;
  }

  names(): string[] {
    return this.registry.names();
  }

  list(): ProviderDefinition<never>[] {
    return this.registry.list();
  }

  /** Builds a provider from a config entry: resolves the name, validates the settings, calls the factory. */
  async resolve(config: ProviderConfig): Promise<Provider> {
    const { name, ...settings } = config;
    const definition = await this.registry.definition(name);
    return definition.create(
      validateOptions<never>(definition.settingsSchema, settings, `provider "${name}"`),
    );
  }
}

/** Creates a provider registry. */
export function createProviderRegistry(settings: ProviderRegistrySettings = {}): ProviderRegistry {
  return new ProviderRegistry(settings);
}

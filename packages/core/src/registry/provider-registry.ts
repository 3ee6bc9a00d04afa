import { ProviderNotFoundError } from '../errors/provider-not-found-error.js';
import type { JSONObject } from '../json.js';
import type { Provider } from '../specs/provider-v1.js';
import { DefinitionRegistry, type PackageLoader } from './definition-registry.js';
import type { ResolveFrom } from './import-from-folders.js';
import type { ProviderDefinition } from './provider-definition.js';

/** A provider in a config: the adapter's name and its settings. */
export type ProviderConfig = { name: string } & JSONObject;

/** Settings of {@link createProviderRegistry}. */
export interface ProviderRegistrySettings {
  definitions?: readonly ProviderDefinition<never>[];
  /** How to load `@compaction/provider-<name>`; `false` never loads packages. */
  loadPackage?: PackageLoader | false;
  /** Where to look for a package that `loadPackage` cannot see, as for strategies (the working folder by default). */
  resolveFrom?: ResolveFrom | readonly ResolveFrom[];
}

/**
 * Maps provider names to adapter definitions, loading `@compaction/provider-<name>` for a name that is not
 * registered, exactly as strategies are resolved.
 */
export interface ProviderRegistry {
  /** Registers a definition; a later registration under the same name replaces the earlier one. */
  register<Settings>(definition: ProviderDefinition<Settings>): ProviderRegistry;
  /** The registered names, sorted. */
  names(): string[];
  /** The registered definitions, by name. */
  list(): ProviderDefinition<never>[];
  /** Builds a provider from a config entry: resolves the name, validates the settings, calls the factory. */
  resolve(config: ProviderConfig): Promise<Provider>;
}

class DefaultProviderRegistry
  extends DefinitionRegistry<ProviderDefinition<never>>
  implements ProviderRegistry
{
  async resolve({ name, ...settings }: ProviderConfig): Promise<Provider> {
    const [definition, validated] = await this.validated(name, settings);
    return definition.create(validated);
  }
}

/** Creates a provider registry with the given definitions. */
export function createProviderRegistry(settings: ProviderRegistrySettings = {}): ProviderRegistry {
  return new DefaultProviderRegistry(
    {
      label: 'provider',
      schema: 'settingsSchema',
      notFound: (context) => new ProviderNotFoundError(context),
    },
    settings,
  );
}

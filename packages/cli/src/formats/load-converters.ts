import { CliError } from '../errors/cli-error.js';

/**
 * Loads a provider package for its converters, lazily: the CLI starts without the provider SDKs and only
 * a command that needs a provider's format pays for loading it.
 */
export async function loadProviderPackage<Exports>(packageName: string, exportNames: readonly string[]) {
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(packageName)) as Record<string, unknown>;
  } catch (error) {
    throw new CliError({
      reason: 'config',
      message: `this format needs ${packageName}; install it next to @compaction/cli`,
      cause: error,
    });
  }
  const missing = exportNames.filter((name) => typeof loaded[name] !== 'function');
  if (missing.length > 0) {
    throw new CliError({
      reason: 'config',
      message: `${packageName} does not export ${missing.join(', ')}; update it to a version that matches @compaction/cli`,
    });
  }
  return loaded as Exports;
}

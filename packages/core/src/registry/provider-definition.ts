import type { OptionsSchema } from '../options/options-schema.js';
import type { Provider } from '../specs/provider-v1.js';

/**
 * What a provider adapter package default-exports, so configs can name it. The registry validates settings
 * against `settingsSchema` (filling in defaults) before it calls `create`.
 */
export interface ProviderDefinition<Settings = unknown> {
  readonly specificationVersion: 'v1';
  /** The name configs use, such as `anthropic`. Adapter packages are named `@compaction/provider-<name>`. */
  readonly name: string;
  /** One sentence: what the adapter talks to. */
  readonly description: string;
  /** JSON Schema of the settings a config may give (`model`, `baseURL`...), with defaults. */
  readonly settingsSchema: OptionsSchema;
  /** Builds the provider from validated settings (API keys usually come from the environment). */
  create(settings: Settings): Provider | Promise<Provider>;
}

import type { Provider } from '@compaction/core';
import { createProvider, type ProviderSettings } from '../providers/create-provider.js';

/**
 * The operator's provider, built once per model on first use. It takes a model id and nothing else, so the
 * adapter, its base URL and its credentials can only ever be the operator's.
 */
export class ProviderPool {
  private readonly providers = new Map<string, Promise<Provider>>();

  constructor(
    private readonly settings: ProviderSettings | undefined,
    private readonly environment?: NodeJS.ProcessEnv,
  ) {}

  /** The provider for a model (the operator's own model when none is given); none without a provider. */
  get(model?: string): Promise<Provider | undefined> {
    if (this.settings === undefined) return Promise.resolve(undefined);
    const key = model ?? this.settings.model ?? '';
    let provider = this.providers.get(key);
    if (provider === undefined) {
      provider = createProvider(
        { ...this.settings, ...(model === undefined ? {} : { model }) },
        this.environment,
      );
      // A failed build (a missing key) is not kept, so a fixed environment is picked up next time.
      provider.catch(() => this.providers.delete(key));
      this.providers.set(key, provider);
    }
    return provider;
  }
}

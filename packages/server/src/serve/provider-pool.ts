import type { Provider } from '@compaction/core';
import { createProvider, type ProviderSettings } from '../providers/create-provider.js';
import { abortableProvider } from './abortable-provider.js';

/**
 * The operator's provider, built once per model on first use. It takes a model id and nothing else, so the
 * adapter, its base URL and its credentials can only ever be the operator's.
 */
export class ProviderPool {
  private readonly providers = new Map<string, Promise<Provider>>();

  /**
   * @param abortSignal aborts every generation in flight (a stop past its timeout); none by default.
   */
  constructor(
    private readonly settings: ProviderSettings | undefined,
    private readonly environment?: NodeJS.ProcessEnv,
    private readonly abortSignal?: AbortSignal,
  ) {}

  /** The provider for a model (the operator's own model when none is given); none without a provider. */
  get(model?: string): Promise<Provider | undefined> {
    if (this.settings === undefined) return Promise.resolve(undefined);
    const key = model ?? this.settings.model ?? '';
    let provider = this.providers.get(key);
    if (provider === undefined) {
      const signal = this.abortSignal;
      provider = createProvider(
        { ...this.settings, ...(model === undefined ? {} : { model }) },
        this.environment,
      ).then((created) => (signal === undefined ? created : abortableProvider(created, signal)));
      // A failed build (a missing key) is not kept, so a fixed environment is picked up next time.
      provider.catch(() => this.providers.delete(key));
      this.providers.set(key, provider);
    }
    return provider;
  }
}

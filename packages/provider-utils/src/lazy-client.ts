import { ProviderError } from '@compaction/core';

/** Settings of {@link lazyClient}. */
export interface LazyClientSettings<Client> {
  /** The provider's name, for the {@link ProviderError} a failed creation becomes. */
  provider: string;
  /** A ready client; when given, `create` is never called. */
  client?: Client;
  /** Builds the client (usually by importing the SDK). */
  create: () => Promise<Client>;
}

/**
 * A getter of the provider's client that builds it on first use and then reuses it. A failed creation (the SDK
 * not installed) rejects with a {@link ProviderError} and is not cached, so a later call tries again.
 */
export function lazyClient<Client>(settings: LazyClientSettings<Client>): () => Promise<Client> {
  let client: Promise<Client> | undefined =
    settings.client === undefined ? undefined : Promise.resolve(settings.client);
  return () => {
    client ??= settings.create().catch((error: unknown) => {
      client = undefined;
      throw new ProviderError({
        provider: settings.provider,
        message: error instanceof Error ? error.message : String(error),
        cause: error,
      });
    });
    return client;
  };
}

import { ProviderError } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { lazyClient } from './lazy-client.js';

describe('lazyClient', () => {
  it('returns the injected client without creating one', async () => {
    const client = { name: 'injected' };
    const getClient = lazyClient({
      provider: 'test',
      client,
      create: () => Promise.reject(new Error('must not be called')),
    });
    expect(await getClient()).toBe(client);
  });

  it('creates the client once and reuses it', async () => {
    let created = 0;
    const getClient = lazyClient({ provider: 'test', create: async () => ({ number: ++created }) });
    const first = await getClient();
    expect(await getClient()).toBe(first);
    expect(created).toBe(1);
  });

  it('turns a failed creation into a ProviderError and tries again on the next call', async () => {
    let attempts = 0;
    const getClient = lazyClient({
      provider: 'test',
      create: async () => {
        attempts++;
        if (attempts === 1) throw new Error('sdk is not installed');
        return { attempts };
      },
    });
    const failure = await getClient().catch((error: unknown) => error);
    expect(ProviderError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({
      provider: 'test',
      message: 'test: sdk is not installed',
      retryable: false,
    });
    expect(await getClient()).toEqual({ attempts: 2 });
  });
});

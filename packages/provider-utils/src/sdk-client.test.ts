import { describe, expect, it } from 'vitest';
import { createSdkClient } from './sdk-client.js';

class FakeClient {
  constructor(readonly options: Record<string, unknown>) {}
}

describe('createSdkClient', () => {
  it('constructs the default export with the settings given, headers as defaultHeaders', async () => {
    const client = await createSdkClient<FakeClient, { apiKey?: string; headers?: Record<string, string> }>({
      packageName: 'fake-sdk',
      load: async () => ({ default: FakeClient }),
      settings: { apiKey: 'key', headers: { 'x-test': '1' } },
    });
    expect(client).toBeInstanceOf(FakeClient);
    expect(client.options).toEqual({ apiKey: 'key', defaultHeaders: { 'x-test': '1' } });
  });

  it('passes every shared setting and the named extra ones, and no undefined ones', async () => {
    const client = await createSdkClient<FakeClient, Record<string, unknown>>({
      packageName: 'fake-sdk',
      load: async () => ({ default: FakeClient }),
      settings: {
        baseURL: 'http://127.0.0.1:1',
        maxRetries: 0,
        timeout: 5,
        organization: 'org',
        project: undefined,
        ignored: 'x',
      },
      passThrough: ['organization', 'project'],
    });
    expect(client.options).toEqual({
      baseURL: 'http://127.0.0.1:1',
      maxRetries: 0,
      timeout: 5,
      organization: 'org',
    });
  });

  it('names the package when it cannot be imported', async () => {
    const failure = new Error('Cannot find package');
    const created = createSdkClient({
      packageName: 'fake-sdk',
      load: () => Promise.reject(failure),
      settings: {},
    });
    await expect(created).rejects.toThrow('fake-sdk is not installed; install it or pass a client');
    await expect(created).rejects.toMatchObject({ cause: failure });
  });
});

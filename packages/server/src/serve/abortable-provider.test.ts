import { getEventListeners } from 'node:events';
import type { GenerateRequest, Provider } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { abortableProvider } from './abortable-provider.js';

/** A provider whose generation waits until its signal aborts, or answers at once when told to. */
function waitingProvider(answerAtOnce = false) {
  const requests: GenerateRequest[] = [];
  const provider: Provider = {
    specificationVersion: 'v1',
    name: 'waiting',
    modelId: 'waiting-model',
    modelLimits: () => ({ contextWindow: 1000, maxOutputTokens: 100 }),
    generate: (request) => {
      requests.push(request);
      if (answerAtOnce) return Promise.resolve({ text: 'done', finishReason: 'stop' });
      return new Promise((_, reject) =>
        request.abortSignal?.addEventListener('abort', () => reject(request.abortSignal!.reason)),
      );
    },
  };
  return { provider, requests };
}

describe('abortableProvider', () => {
  it('aborts a generation when the server’s signal aborts, as well as on its own signal', async () => {
    const server = new AbortController();
    const { provider } = waitingProvider();
    const wrapped = abortableProvider(provider, server.signal);
    expect(wrapped.modelLimits()).toEqual({ contextWindow: 1000, maxOutputTokens: 100 });

    const own = new AbortController();
    const byOwn = wrapped.generate({ messages: [], abortSignal: own.signal });
    own.abort(new Error('caller gave up'));
    await expect(byOwn).rejects.toThrow('caller gave up');

    const byServer = wrapped.generate({ messages: [], abortSignal: new AbortController().signal });
    const withoutOwn = wrapped.generate({ messages: [] });
    server.abort(new Error('stopping'));
    await expect(byServer).rejects.toThrow('stopping');
    await expect(withoutOwn).rejects.toThrow('stopping');
  });

  it('leaves no listener on the server’s signal once a generation ends', async () => {
    const server = new AbortController();
    const { provider, requests } = waitingProvider(true);
    const wrapped = abortableProvider(provider, server.signal);
    for (let index = 0; index < 20; index++) {
      await wrapped.generate({ messages: [], abortSignal: new AbortController().signal });
    }
    expect(requests).toHaveLength(20);
    expect(getEventListeners(server.signal, 'abort')).toHaveLength(0);
  });
});

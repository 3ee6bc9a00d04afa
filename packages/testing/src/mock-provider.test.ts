import { ContextOverflowError, createMessageEstimator, ProviderError } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { createMockProvider } from './mock-provider.js';

const request = { messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }] };

describe('createMockProvider', () => {
  it('answers from its script in order and records requests', async () => {
    const provider = createMockProvider({
      responses: ['first', { text: 'cut', finishReason: 'length' }, (r) => `saw ${r.messages.length}`],
    });
    expect((await provider.generate(request)).text).toBe('first');
    expect((await provider.generate(request)).finishReason).toBe('length');
    expect((await provider.generate(request)).text).toBe('saw 1');
    await expect(provider.generate(request)).rejects.toThrow(ProviderError);
    expect(provider.requests).toHaveLength(4);
  });

  it('throws scripted errors and honours abort signals', async () => {
    const provider = createMockProvider({
      responses: [new ProviderError({ provider: 'mock', message: '429', status: 429 }), 'late'],
      latencyMs: 1000,
    });
    await expect(provider.generate(request)).rejects.toThrow('429');
    const controller = new AbortController();
    const pending = provider.generate({ ...request, abortSignal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });

  it('recognises overflow errors and counts when asked', async () => {
    const provider = createMockProvider({
      countWith: createMessageEstimator({
        name: 'approximate:3.5',
        countText: (text) => Math.ceil(text.length / 3.5),
      }),
    });
    const overflow = new ContextOverflowError({ provider: 'mock', requestTokens: 10, maximumTokens: 5 });
    expect(provider.parseContextOverflow?.(overflow)).toMatchObject({ requestTokens: 10, maximumTokens: 5 });
    expect(provider.parseContextOverflow?.(new Error('other'))).toBeUndefined();
    expect(await provider.countTokens?.(request)).toMatchObject({
      accuracy: 'exact',
      source: 'mock:approximate:3.5',
    });
  });
});

import { CompactionAbortedError } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { resolveGenerateRequest } from './resolve-generate-request.js';

const modelLimits = (modelId: string) =>
  modelId === 'small'
    ? { contextWindow: 1000, maxOutputTokens: 1000 }
    : { contextWindow: 1e6, maxOutputTokens: 1e5 };

describe('resolveGenerateRequest', () => {
  it('takes the model and output limit of the request first', () => {
    expect(
      resolveGenerateRequest(
        { messages: [], modelId: 'small', maxOutputTokens: 5000 },
        { modelId: 'large', modelLimits },
      ),
    ).toEqual({ modelId: 'small', maxOutputTokens: 5000 });
  });

  it('defaults to the provider model and 4,096 output tokens, capped at the model limit', () => {
    expect(resolveGenerateRequest({ messages: [] }, { modelId: 'large', modelLimits })).toEqual({
      modelId: 'large',
      maxOutputTokens: 4096,
    });
    expect(
      resolveGenerateRequest({ messages: [], modelId: 'small' }, { modelId: 'large', modelLimits }),
    ).toEqual({
      modelId: 'small',
      maxOutputTokens: 1000,
    });
    expect(
      resolveGenerateRequest({ messages: [] }, { modelId: 'large', maxOutputTokens: 20_000, modelLimits }),
    ).toEqual({ modelId: 'large', maxOutputTokens: 20_000 });
  });

  it('throws CompactionAbortedError for an aborted signal', () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    expect(() =>
      resolveGenerateRequest(
        { messages: [], abortSignal: controller.signal },
        { modelId: 'large', modelLimits },
      ),
    ).toThrow(CompactionAbortedError);
  });
});

import {
  ContextOverflowError,
  createTokenCounter,
  type GenerateRequest,
  type GenerateResult,
  type ModelLimits,
  type Provider,
  ProviderError,
  type TokenEstimator,
} from '@compaction/core';

/** One scripted answer: text, a full result, an error to throw, or a function of the request. */
export type ScriptedResponse =
  | string
  | GenerateResult
  | Error
  | ((request: GenerateRequest) => string | GenerateResult | Promise<string | GenerateResult>);

/** Settings of {@link createMockProvider}. */
export interface MockProviderSettings {
  name?: string;
  modelId?: string;
  /** Answers in order; when they run out, `generate` throws a `ProviderError`. */
  responses?: ScriptedResponse[];
  /** Limits returned for every model. Default 200,000 and 8,192. */
  limits?: ModelLimits;
  /** Give the provider a `countTokens` that counts with this estimator (reported as exact). */
  countWith?: TokenEstimator;
  /** Milliseconds each `generate` call waits before answering (it still honours abort signals). */
  latencyMs?: number;
}

/** A mock provider: scripted answers, recorded requests. */
export interface MockProvider extends Provider {
  /** Every request `generate` received, in order. */
  readonly requests: GenerateRequest[];
}

/**
 * A scripted {@link Provider} for tests: answers come from a list, every request is recorded, abort signals
 * are honoured, and {@link ContextOverflowError}s are recognised as overflows.
 */
export function createMockProvider(settings: MockProviderSettings = {}): MockProvider {
  const name = settings.name ?? 'mock';
  const responses = [...(settings.responses ?? [])];
  const requests: GenerateRequest[] = [];
  const limits = settings.limits ?? { contextWindow: 200_000, maxOutputTokens: 8192 };
  const counter = settings.countWith === undefined ? undefined : createTokenCounter(settings.countWith);

  const provider: MockProvider = {
    specificationVersion: 'v1',
    name,
    modelId: settings.modelId ?? 'mock-model',
    requests,
    async generate(request) {
      requests.push(request);
      request.abortSignal?.throwIfAborted();
      if (settings.latencyMs !== undefined) await delay(settings.latencyMs, request.abortSignal);
      const next = responses.shift();
      if (next === undefined)
        throw new ProviderError({ provider: name, message: 'no scripted response left' });
      if (next instanceof Error) throw next;
      const answer = typeof next === 'function' ? await next(request) : next;
      return typeof answer === 'string' ? { text: answer, finishReason: 'stop' } : answer;
    },
    parseContextOverflow(error) {
      if (!ContextOverflowError.isInstance(error)) return undefined;
      return {
        message: error.message,
        ...(error.requestTokens === undefined ? {} : { requestTokens: error.requestTokens }),
        ...(error.maximumTokens === undefined ? {} : { maximumTokens: error.maximumTokens }),
      };
    },
    modelLimits: () => limits,
  };
  if (counter !== undefined) {
    provider.countTokens = async (request) => ({
      tokens: counter.estimate(request.messages),
      accuracy: 'exact',
      source: `${name}:${counter.estimator.name}`,
    });
  }
  return provider;
}

function delay(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, milliseconds);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

import { CompactionAbortedError, ContextOverflowError, ProviderError } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { type ProviderErrorMapping, toProviderCompactionError } from './to-provider-compaction-error.js';

const mapping: ProviderErrorMapping = {
  provider: 'test',
  parseContextOverflow: (error) => {
    const message = (error as { message?: unknown }).message;
    if (typeof message !== 'string' || !message.startsWith('too long')) return undefined;
    const numbers = /(\d+) > (\d+)/.exec(message);
    return numbers === null
      ? { message }
      : { message, requestTokens: Number(numbers[1]), maximumTokens: Number(numbers[2]) };
  },
  isPermanent: (error) => error.code === 'insufficient_quota',
};

class StatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

class APIConnectionTimeoutError extends Error {}

describe('toProviderCompactionError', () => {
  it('maps an abort through the signal, whatever the error', () => {
    const controller = new AbortController();
    controller.abort();
    const cause = new StatusError(400, 'too long: 5 > 4');
    const mapped = toProviderCompactionError(cause, mapping, controller.signal);
    expect(CompactionAbortedError.isInstance(mapped)).toBe(true);
    expect(mapped.cause).toBe(cause);
  });

  it('maps an overflow refusal with its numbers', () => {
    const cause = new StatusError(400, 'too long: 208310 > 200000');
    const mapped = toProviderCompactionError(cause, mapping);
    expect(ContextOverflowError.isInstance(mapped)).toBe(true);
    const overflow = mapped as ContextOverflowError;
    expect(overflow).toMatchObject({ provider: 'test', requestTokens: 208310, maximumTokens: 200000 });
    expect(overflow.message).toBe('test: too long: 208310 > 200000');
    expect(overflow.cause).toBe(cause);
  });

  it('maps an overflow refusal without numbers', () => {
    const overflow = toProviderCompactionError(
      new StatusError(400, 'too long'),
      mapping,
    ) as ContextOverflowError;
    expect(ContextOverflowError.isInstance(overflow)).toBe(true);
    expect(overflow.requestTokens).toBeUndefined();
    expect(overflow.maximumTokens).toBeUndefined();
  });

  it.each([
    [408, true],
    [409, true],
    [429, true],
    [500, true],
    [529, true],
    [400, false],
    [401, false],
    [404, false],
  ])('maps status %i to a ProviderError, retryable: %s', (status, retryable) => {
    const mapped = toProviderCompactionError(new StatusError(status, 'failed'), mapping);
    expect(ProviderError.isInstance(mapped)).toBe(true);
    expect(mapped).toMatchObject({ provider: 'test', status, retryable, message: 'test: failed' });
  });

  it('does not retry what the mapping calls permanent', () => {
    const mapped = toProviderCompactionError(new StatusError(429, 'quota', 'insufficient_quota'), mapping);
    expect(mapped).toMatchObject({ status: 429, retryable: false });
  });

  it('retries connection failures and timeouts without a status', () => {
    const byClass = toProviderCompactionError(new APIConnectionTimeoutError('timed out'), mapping);
    expect(byClass).toMatchObject({ retryable: true, status: undefined });
    const byName = Object.assign(new Error('reset'), { name: 'APIConnectionError' });
    expect(toProviderCompactionError(byName, mapping)).toMatchObject({ retryable: true });
    expect(toProviderCompactionError(new Error('bad'), mapping)).toMatchObject({ retryable: false });
  });

  it('maps values that are not errors', () => {
    const mapped = toProviderCompactionError('plain failure', mapping);
    expect(ProviderError.isInstance(mapped)).toBe(true);
    expect(mapped.message).toBe('test: plain failure');
  });
});

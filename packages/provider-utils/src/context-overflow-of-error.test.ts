import { ContextOverflowError } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { contextOverflowOfError } from './context-overflow-of-error.js';

describe('contextOverflowOfError', () => {
  it('reads a ContextOverflowError with and without numbers', () => {
    const withNumbers = new ContextOverflowError({
      provider: 'test',
      requestTokens: 300,
      maximumTokens: 200,
    });
    expect(contextOverflowOfError(withNumbers)).toEqual({
      message: withNumbers.message,
      requestTokens: 300,
      maximumTokens: 200,
    });
    const without = new ContextOverflowError({ provider: 'test', message: 'too long' });
    expect(contextOverflowOfError(without)).toEqual({ message: 'too long' });
  });

  it('returns undefined for anything else', () => {
    expect(contextOverflowOfError(new Error('prompt is too long'))).toBeUndefined();
    expect(contextOverflowOfError({ message: 'too long', requestTokens: 3 })).toBeUndefined();
    expect(contextOverflowOfError(undefined)).toBeUndefined();
  });
});

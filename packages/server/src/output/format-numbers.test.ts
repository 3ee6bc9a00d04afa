import fc from 'fast-check';
import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { formatCount } from './format-numbers.js';

// Not on the Node 22 compatibility run: formatting numbers is plain code, with no module of the runtime (the Node
// 20 run has run it).
describeOnFullRun('formatCount', () => {
  it('groups thousands with commas', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1,000');
    expect(formatCount(48_210)).toBe('48,210');
    expect(formatCount(-1_234_567)).toBe('-1,234,567');
    expect(formatCount(1_049_744.6)).toBe('1,049,745');
  });

  it('writes every number as toLocaleString("en-US") writes it rounded', () => {
    const sample = fc.oneof(
      fc.integer(),
      fc.maxSafeInteger(),
      fc.double(),
      fc.double({ min: -1e7, max: 1e7, noNaN: true }),
      fc.constantFrom(-0, -0.4, 0.5, -0.5, Number.MAX_SAFE_INTEGER + 2, 2 ** 60, 1e21, Infinity, NaN),
    );
    fc.assert(
      fc.property(sample, (value) => {
        expect(formatCount(value)).toBe(Math.round(value).toLocaleString('en-US'));
      }),
    );
  });
});

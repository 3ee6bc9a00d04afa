import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deepEqual } from './deep-equal.js';

describe('deepEqual', () => {
  it('tells URLs apart by their address', () => {
    expect(deepEqual(new URL('https://example.com/a.png'), new URL('https://example.com/b.png'))).toBe(false);
    expect(deepEqual(new URL('https://example.com/a.png'), new URL('https://example.com/a.png'))).toBe(true);
    expect(deepEqual({ image: new URL('https://example.com/a') }, { image: 'https://example.com/a' })).toBe(
      false,
    );
  });

  it('tells byte buffers apart by their bytes', () => {
    const bytes = (...values: number[]) => new Uint8Array(values);
    expect(deepEqual(bytes(1, 2).buffer, bytes(1, 3).buffer)).toBe(false);
    expect(deepEqual(bytes(1, 2).buffer, bytes(1, 2).buffer)).toBe(true);
    expect(deepEqual(bytes(1, 2), bytes(1, 3))).toBe(false);
    expect(deepEqual(bytes(9, 1, 2).subarray(1), bytes(1, 2))).toBe(true);
    expect(deepEqual(bytes(1, 2), bytes(1, 2).buffer)).toBe(false);
    expect(deepEqual(new Uint16Array([1]), new Uint8Array([1, 0]))).toBe(false);
  });

  it('treats properties set to undefined as absent', () => {
    expect(deepEqual({ text: 'a', metadata: undefined }, { text: 'a' })).toBe(true);
    expect(deepEqual({ text: 'a', metadata: undefined }, { text: 'a', other: undefined })).toBe(true);
    expect(deepEqual({ a: 1 }, { b: 1 })).toBe(false);
  });

  it('agrees with comparing the JSON of plain data', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (left, right) => {
        expect(deepEqual(left, structuredClone(left))).toBe(true);
        // Key order aside, two JSON values are equal exactly when they serialize alike.
        const canonical = (value: unknown) => JSON.stringify(value, (_, item) => sortKeys(item));
        expect(deepEqual(left, right)).toBe(canonical(left) === canonical(right));
      }),
    );
  });
});

function sortKeys(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([left], [right]) => (left < right ? -1 : 1)));
}

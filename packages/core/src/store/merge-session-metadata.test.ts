import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JSONObject } from '../json.js';
import { mergeSessionMetadata } from './merge-session-metadata.js';

describe('mergeSessionMetadata', () => {
  it('replaces the keys given, removes those set to undefined, and keeps the rest', () => {
    const current = { a: 1, b: { c: 2 }, d: 'kept' };
    const merged = mergeSessionMetadata(current, { a: 3, b: undefined } as unknown as JSONObject);
    expect(merged).toEqual({ a: 3, d: 'kept' });
    expect(mergeSessionMetadata(undefined, { a: 1 })).toEqual({ a: 1 });
  });

  it('changes neither input, and keeps no reference to the update', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.dictionary(fc.string(), fc.jsonValue()),
        (current, update) => {
          const before = structuredClone([current, update]);
          const merged = mergeSessionMetadata(current as JSONObject, update as JSONObject);
          expect([current, update]).toEqual(before);
          expect(merged).not.toBe(current);
          for (const [key, value] of Object.entries(update)) {
            expect(merged[key]).toEqual(value);
            if (typeof value === 'object' && value !== null) expect(merged[key]).not.toBe(value);
          }
        },
      ),
    );
  });
});

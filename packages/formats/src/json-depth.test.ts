import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findExcessiveNesting, findExcessiveNestingInJsonText, maxJsonDepth } from './json-depth.js';

/** Nesting depth the plain recursive way, for small values: `[]` and `{}` are one level. */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Object.values(value as object);
  return 1 + Math.max(0, ...children.map(depthOf));
}

const nestedArrays = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown;

describe('findExcessiveNesting', () => {
  it('accepts a value exactly at the limit and refuses one level more, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), (value) => {
        const depth = depthOf(value);
        expect(findExcessiveNesting(value, depth)).toBeUndefined();
        if (depth > 0) expect(findExcessiveNesting(value, depth - 1)).toMatchObject({ maxDepth: depth - 1 });
      }),
      { numRuns: 300 },
    );
  });

  it('walks 100,000 levels without overflowing the stack, and names the path where the limit is crossed', () => {
    const value = {
      messages: [{ role: 'user', content: [{ type: 'tool-call', input: nestedArrays(100_000) }] }],
    };
    const found = findExcessiveNesting(value);
    expect(found).toEqual({ path: 'messages[0].content[0].input[0][0][0]…', maxDepth: maxJsonDepth });
    expect(findExcessiveNesting(nestedArrays(maxJsonDepth))).toBeUndefined();
    expect(findExcessiveNesting(nestedArrays(maxJsonDepth + 1))?.path).toMatch(/^\[0\]/);
    expect(findExcessiveNesting({ 'odd key': { ok: 1 } }, 1)?.path).toBe('["odd key"]');
  });

  it('reads JSON kept as text, and ignores text that is not JSON', () => {
    const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    expect(findExcessiveNestingInJsonText(deep)?.path).toBe('a.a.a.a.a.a.a.a…');
    expect(findExcessiveNestingInJsonText('[[1]]')).toBeUndefined();
    expect(findExcessiveNestingInJsonText(`${'['.repeat(5000)}not json`)).toBeUndefined();
    expect(findExcessiveNestingInJsonText('plain text')).toBeUndefined();
  });
});

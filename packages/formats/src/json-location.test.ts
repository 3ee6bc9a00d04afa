import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstJsonErrorOffset, locationOf, parseJsonWithLocation } from './json-location.js';

describe('parseJsonWithLocation', () => {
  it('parses valid JSON', () => {
    expect(parseJsonWithLocation('{"a": [1, 2]}')).toEqual({ ok: true, value: { a: [1, 2] } });
  });

  it('gives the line and column of the first error', () => {
    expect(parseJsonWithLocation('{\n  "a": 1,\n  "b": x\n}')).toMatchObject({
      ok: false,
      location: { line: 3, column: 8 },
    });
    expect(parseJsonWithLocation('[1, 2')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('expected'),
      location: { line: 1, column: 6 },
    });
    expect(parseJsonWithLocation('{"a": 1}}')).toMatchObject({ ok: false, location: { line: 1, column: 9 } });
  });

  it('finds no error offset before the end in any valid JSON, and the same offset as truncation', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), (value, cut) => {
        const text = JSON.stringify(value, null, 1);
        expect(firstJsonErrorOffset(text)).toBe(text.length);
        const truncated = text.slice(0, cut % Math.max(text.length, 1));
        let valid = true;
        try {
          JSON.parse(truncated);
        } catch {
          valid = false;
        }
        if (!valid) expect(firstJsonErrorOffset(truncated)).toBeLessThanOrEqual(truncated.length);
      }),
      { numRuns: 300 },
    );
  });

  it('locates the end of truncated input nested 100,000 levels deep, without overflowing the stack', () => {
    const text = `{"messages": ${'['.repeat(100_000)}`;
    expect(firstJsonErrorOffset(text)).toBe(text.length);
    expect(parseJsonWithLocation(text)).toMatchObject({
      ok: false,
      location: { line: 1, column: text.length + 1 },
    });
    const stray = `${'['.repeat(50_000)}1}`;
    expect(firstJsonErrorOffset(stray)).toBe(50_001);
  });

  it('maps offsets to lines and columns', () => {
    expect(locationOf('ab\ncd\n', 4)).toEqual({ line: 2, column: 2 });
    expect(locationOf('', 0)).toEqual({ line: 1, column: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import { frozenCopy } from './frozen-copy.js';

describe('frozenCopy', () => {
  it('copies deeply and freezes every level, leaving the input unchanged and unfrozen', () => {
    const input = { role: 'user', content: [{ type: 'text', text: 'hi', extra: { nested: [1, 2] } }] };
    const copy = frozenCopy(input);
    expect(copy).toEqual(input);
    expect(copy).not.toBe(input);
    expect(copy.content[0]).not.toBe(input.content[0]);
    expect(Object.isFrozen(copy)).toBe(true);
    expect(Object.isFrozen(copy.content)).toBe(true);
    expect(Object.isFrozen(copy.content[0]!.extra.nested)).toBe(true);
    expect(Object.isFrozen(input)).toBe(false);
    expect(Object.isFrozen(input.content[0]!.extra)).toBe(false);
  });

  it('returns primitives as they are', () => {
    expect(frozenCopy('text')).toBe('text');
    expect(frozenCopy(3)).toBe(3);
    expect(frozenCopy(null)).toBe(null);
  });
});

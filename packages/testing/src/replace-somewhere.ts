import fc from 'fast-check';

/**
 * `value` with one value somewhere inside it (picked by `position`, counted depth first over every object,
 * array and leaf) replaced by `replacement`: valid input made odd in one place. `value` is not changed.
 */
export function replaceSomewhere(value: unknown, position: number, replacement: unknown): unknown {
  let remaining = position % countValues(value);
  const walk = (current: unknown): unknown => {
    if (remaining-- === 0) return replacement;
    if (Array.isArray(current)) return current.map(walk);
    if (typeof current === 'object' && current !== null) {
      return Object.fromEntries(Object.entries(current).map(([key, item]) => [key, walk(item)]));
    }
    return current;
  };
  return walk(value);
}

/** Arbitrary values of `base` with one inner value replaced by anything. */
export function oddlyChanged<T>(base: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc
    .tuple(base, fc.nat(), fc.anything({ maxDepth: 2 }))
    .map(([value, position, replacement]) => replaceSomewhere(value, position, replacement));
}

function countValues(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce((sum: number, item) => sum + countValues(item), 0);
  if (typeof value === 'object' && value !== null) {
    return 1 + Object.values(value).reduce((sum: number, item) => sum + countValues(item), 0);
  }
  return 1;
}

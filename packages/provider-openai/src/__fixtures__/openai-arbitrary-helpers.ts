import fc from 'fast-check';

/** Short text. */
export const text = fc.string({ maxLength: 12 });
/** A few ids and names, so values repeat. */
export const identifier = fc.constantFrom('a', 'b', 'c', 'd');
/** JSON values without `__proto__` keys, which no request carries. */
export const json = fc
  .jsonValue({ maxDepth: 2 })
  .filter((value) => !JSON.stringify(value).includes('__proto__'));

/** A record arbitrary whose keys come out in a random order. */
export function shuffled<T extends object>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return arbitrary.chain((value) => {
    const keys = Object.keys(value);
    return fc
      .shuffledSubarray(keys, { minLength: keys.length, maxLength: keys.length })
      .map((order) => Object.fromEntries(order.map((key) => [key, value[key as keyof T]])) as T);
  });
}

/** Adds, sometimes, a field no SDK type has (a newer API version's), then shuffles the keys. */
export function loose<T extends object>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return shuffled(
    fc
      .tuple(arbitrary, fc.option(json, { nil: undefined }))
      .map(([value, extra]) => (extra === undefined ? value : { ...value, future_field: extra })),
  );
}

/** Tool arguments as a model writes them: canonical JSON, spaced JSON, or text that is not JSON. */
export const argumentsText = fc.oneof(
  fc.dictionary(identifier, json, { maxKeys: 3 }).map((value) => JSON.stringify(value)),
  fc.dictionary(identifier, json, { maxKeys: 3 }).map((value) => JSON.stringify(value, null, 1)),
  text,
);

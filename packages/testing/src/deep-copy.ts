/**
 * A deep copy of plain data (arrays and plain objects, copied recursively); anything else, functions
 * included, is kept as is. Unlike `structuredClone` it copies malformed messages too, whose tool inputs may
 * be functions, so a check can compare an input with what it was before a call.
 */
export function deepCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(deepCopy) as T;
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) {
    return value;
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, deepCopy(item)])) as T;
}

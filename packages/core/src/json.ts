/** A JSON value: what messages, options and configs are made of, so they serialize losslessly. */
export type JSONValue = null | string | number | boolean | JSONObject | JSONValue[];

/** A JSON object. */
export type JSONObject = { [key: string]: JSONValue | undefined };

/** Whether `value` is plain JSON (finite numbers, no functions, cycles or class instances). */
export function isJSONValue(value: unknown, seen: Set<object> = new Set()): value is JSONValue {
  if (value === null) return true;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (seen.has(value)) return false;
      seen.add(value);
      try {
        if (Array.isArray(value)) return value.every((item) => isJSONValue(item, seen));
        const prototype = Object.getPrototypeOf(value);
        if (prototype !== Object.prototype && prototype !== null) return false;
        return Object.values(value).every((item) => item === undefined || isJSONValue(item, seen));
      } finally {
        seen.delete(value);
      }
    }
    default:
      return false;
  }
}

/** `values` without its `undefined` entries, so records compare and serialize the same however built. */
export function present<Values extends object>(values: Values): Partial<Values> {
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== undefined),
  ) as Partial<Values>;
}

/** Whether `value` is an object that is neither null nor an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The type of a value as messages name it: `null`, `an array`, or its `typeof`. */
export function describeType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/**
 * A deep copy of a JSON-like value, frozen all the way down, so neither the caller nor an SDK can change it.
 * Adapters keep the messages of a conversation this way: what they were given is copied, what they hold is
 * immutable, and the copy keeps its identity for memoized token counts.
 */
export function frozenCopy<Value>(value: Value): Value {
  return deepFreeze(structuredClone(value));
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Structural equality of AI SDK messages: plain data plus bytes, `ArrayBuffer`s and URLs, compared by
 * content. Properties set to `undefined` count as absent, as they do when a message is serialized.
 */
export function sameValue(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (left instanceof URL || right instanceof URL) {
    return left instanceof URL && right instanceof URL && left.href === right.href;
  }
  if (left instanceof ArrayBuffer || right instanceof ArrayBuffer) {
    return (
      left instanceof ArrayBuffer &&
      right instanceof ArrayBuffer &&
      sameBytes(new Uint8Array(left), new Uint8Array(right))
    );
  }
  if (left instanceof Uint8Array || right instanceof Uint8Array) {
    return (
      left instanceof Uint8Array &&
      right instanceof Uint8Array &&
      left.constructor === right.constructor &&
      sameBytes(left, right)
    );
  }
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left) && Array.isArray(right)) {
    return left.length === right.length && left.every((item, index) => sameValue(item, right[index]));
  }
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  const leftKeys = Object.keys(leftRecord).filter((key) => leftRecord[key] !== undefined);
  const rightKeys = Object.keys(rightRecord).filter((key) => rightRecord[key] !== undefined);
  return (
    leftKeys.length === rightKeys.length &&
    leftKeys.every((key) => Object.hasOwn(rightRecord, key) && sameValue(leftRecord[key], rightRecord[key]))
  );
}

function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}

/**
 * Structural equality of messages and what converters build around them: plain data compared by content,
 * with URLs compared by `href` and `ArrayBuffer`s and typed byte arrays by their bytes (they have no own
 * keys, so a key-by-key comparison would find any two of them equal). Properties set to `undefined` count as
 * absent, as they do when a message is serialized.
 */
export function deepEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (left instanceof URL || right instanceof URL) {
    return left instanceof URL && right instanceof URL && left.href === right.href;
  }
  if (left instanceof ArrayBuffer || right instanceof ArrayBuffer) {
    return left instanceof ArrayBuffer && right instanceof ArrayBuffer && sameBytes(left, right);
  }
  if (ArrayBuffer.isView(left) || ArrayBuffer.isView(right)) {
    return (
      ArrayBuffer.isView(left) &&
      ArrayBuffer.isView(right) &&
      left.constructor === right.constructor &&
      sameBytes(left, right)
    );
  }
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left) && Array.isArray(right)) {
    return left.length === right.length && left.every((item, index) => deepEqual(item, right[index]));
  }
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  const leftKeys = Object.keys(leftRecord).filter((key) => leftRecord[key] !== undefined);
  const rightKeys = Object.keys(rightRecord).filter((key) => rightRecord[key] !== undefined);
  return (
    leftKeys.length === rightKeys.length &&
    leftKeys.every((key) => Object.hasOwn(rightRecord, key) && deepEqual(leftRecord[key], rightRecord[key]))
  );
}

function sameBytes(left: ArrayBuffer | ArrayBufferView, right: ArrayBuffer | ArrayBufferView): boolean {
  const bytes = (value: ArrayBuffer | ArrayBufferView) =>
    value instanceof ArrayBuffer
      ? new Uint8Array(value)
      : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  const [leftBytes, rightBytes] = [bytes(left), bytes(right)];
  if (leftBytes.length !== rightBytes.length) return false;
  for (let index = 0; index < leftBytes.length; index++)
    if (leftBytes[index] !== rightBytes[index]) return false;
  return true;
}

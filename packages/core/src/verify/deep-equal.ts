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
  const [leftBytes, rightBytes] = [bytesOf(left), bytesOf(right)];
  if (leftBytes !== undefined || rightBytes !== undefined) {
    return (
      leftBytes?.length === rightBytes?.length &&
      left.constructor === right.constructor &&
      leftBytes!.every((byte, index) => byte === rightBytes![index])
    );
  }
  if (Array.isArray(left) || Array.isArray(right)) {
    return (
      Array.isArray(left) &&
      Array.isArray(right) &&
      left.length === right.length &&
      left.every((item, index) => deepEqual(item, right[index]))
    );
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

function bytesOf(value: object): Uint8Array | undefined {
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return ArrayBuffer.isView(value)
    ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
    : undefined;
}

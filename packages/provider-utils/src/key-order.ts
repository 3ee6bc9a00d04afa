import type { JSONObject } from '@compaction/core';

/**
 * Where the keys of a request value stood in another order than the converter writes them: `keys` lists an
 * object's keys in their original order, `children` does the same for the values under it (by key, or by
 * index in an array). Providers cache on the exact bytes of a request, so converting an unchanged
 * conversation back must restore the order of its keys, not only their values.
 */
export interface KeyOrder extends JSONObject {
  keys?: string[];
  children?: { [keyOrIndex: string]: KeyOrder };
}

/**
 * How `original` orders its keys where `written` (the same value as the converter writes it) orders them
 * differently, or `undefined` when they serialize alike. Only the order is compared: the converters already
 * write equal values.
 */
export function keyOrderDifference(original: unknown, written: unknown): KeyOrder | undefined {
  if (original === written) return undefined;
  const children: { [keyOrIndex: string]: KeyOrder } = {};
  let order: KeyOrder | undefined;
  if (Array.isArray(original) && Array.isArray(written)) {
    original.forEach((item, index) => {
      const child = keyOrderDifference(item, written[index]);
      if (child !== undefined) children[index] = child;
    });
  } else if (isRecord(original) && isRecord(written)) {
    const originalKeys = writtenKeys(original);
    const ownKeys = writtenKeys(written);
    if (originalKeys.length !== ownKeys.length || originalKeys.some((key, index) => key !== ownKeys[index])) {
      order = { keys: originalKeys };
    }
    for (const key of originalKeys) {
      const child = keyOrderDifference(original[key], written[key]);
      if (child !== undefined) children[key] = child;
    }
  }
  if (Object.keys(children).length > 0) order = { ...order, children };
  return order;
}

/**
 * `value` with its keys in the order `order` records; keys the order does not know (a strategy may have
 * added some) follow in their own order. Returns `value` itself when there is nothing to reorder.
 */
export function withKeyOrder<T>(value: T, order: KeyOrder | undefined): T {
  if (order === undefined) return value;
  const { keys, children } = order;
  if (Array.isArray(value)) {
    if (children === undefined) return value;
    return value.map((item, index) => withKeyOrder(item, children[index])) as T;
  }
  if (!isRecord(value)) return value;
  const source: Record<string, unknown> =
    children === undefined
      ? value
      : Object.fromEntries(
          Object.entries(value).map(([key, item]) => [key, withKeyOrder(item, children[key])]),
        );
  if (keys === undefined) return source as T;
  const ordered: Record<string, unknown> = {};
  for (const key of keys) if (Object.hasOwn(source, key)) setField(ordered, key, source[key]);
  for (const [key, item] of Object.entries(source))
    if (!Object.hasOwn(ordered, key)) setField(ordered, key, item);
  return ordered as T;
}

/** Whether `value` is a key order a converter recorded. */
export function isKeyOrder(value: unknown): value is KeyOrder {
  return isRecord(value);
}

/** The keys `JSON.stringify` writes: those whose value is not `undefined`. */
function writtenKeys(record: Record<string, unknown>): string[] {
  return Object.keys(record).filter((key) => record[key] !== undefined);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Sets `target[key]`, as an own enumerable field even for `__proto__` (which plain assignment would treat as
 * the prototype): request JSON may hold any key.
 */
export function setField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

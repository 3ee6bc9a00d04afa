/**
 * Deeply freezes AI SDK messages so a test fails if anything writes to them. Bytes, buffers and URLs cannot
 * be frozen and are left as they are; they are compared by content afterwards.
 */
export function freezeMessages<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof URL) return value;
  for (const item of Object.values(value)) freezeMessages(item);
  return Object.freeze(value);
}

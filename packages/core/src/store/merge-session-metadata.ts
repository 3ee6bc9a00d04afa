import type { JSONObject } from '../json.js';

/**
 * A session's metadata with `update` merged into it, as every store's `updateSessionMetadata` does: the keys
 * of `update` replace the current ones, and a key set to `undefined` is removed. The result is a new object,
 * with `update` copied into it, so later changes to the caller's values change nothing stored.
 */
export function mergeSessionMetadata(current: JSONObject | undefined, update: JSONObject): JSONObject {
  const merged = { ...current, ...structuredClone(update) };
  return Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
}

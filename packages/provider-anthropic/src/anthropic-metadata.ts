import type { JSONObject, JSONValue, Metadata } from '@compaction/core';
import { setField } from '@compaction/provider-utils';

/** The key under which converters keep Anthropic-only fields in core `metadata`. */
export const anthropicKey = 'anthropic';

/** Reads the Anthropic fields of a message or part's metadata. */
export function anthropicMetadataOf(owner: { metadata?: Metadata }): JSONObject | undefined {
  const value = owner.metadata?.[anthropicKey];
  return isObject(value) ? value : undefined;
}

/** Metadata holding `fields` under the Anthropic key, or `undefined` when there is nothing to keep. */
export function anthropicMetadata(fields: JSONObject): { metadata?: Metadata } {
  const kept = withoutUndefined(fields);
  return Object.keys(kept).length === 0 ? {} : { metadata: { [anthropicKey]: kept } };
}

/** The fields of `object` other than `keys`: what a core part cannot hold and metadata must. */
export function fieldsExcept(object: JSONObject, keys: readonly string[]): JSONObject {
  const rest: JSONObject = {};
  for (const [key, value] of Object.entries(object)) {
    if (!keys.includes(key) && value !== undefined) setField(rest, key, value);
  }
  return rest;
}

/** The extra fields stored in a part's metadata, minus the converter's own markers. */
export function storedFields(owner: { metadata?: Metadata }, markers: readonly string[] = []): JSONObject {
  const stored = anthropicMetadataOf(owner);
  return stored === undefined ? {} : fieldsExcept(stored, markers);
}

export function isObject(value: JSONValue | undefined | unknown): value is JSONObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withoutUndefined(fields: JSONObject): JSONObject {
  return fieldsExcept(fields, []);
}

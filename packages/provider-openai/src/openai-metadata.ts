import { deepEqual, type JSONObject, type JSONValue, type Metadata } from '@compaction/core';
import { setField } from '@compaction/provider-utils';

/**
 * What the converters keep in core `metadata.openai`: `fields` holds the provider fields a core message or
 * part has no place for (`name`, `detail`, `annotations`, item `id` and `status`...), the other keys are the
 * converter's own markers (the shape the content had, the raw tool arguments...).
 */
export interface OpenAIMetadata extends JSONObject {
  fields?: JSONObject;
}

/** Reads `metadata.openai` of a message or part. */
export function openaiMetadataOf(owner: { metadata?: Metadata }): OpenAIMetadata {
  const value = owner.metadata?.openai;
  return isObject(value) ? (value as OpenAIMetadata) : {};
}

/** The stored provider fields of a message or part. */
export function storedFields(owner: { metadata?: Metadata }): JSONObject {
  const fields = openaiMetadataOf(owner).fields;
  return isObject(fields) ? fields : {};
}

/** `{ metadata: { openai } }` with the markers and fields that are set, or nothing. */
export function openaiMetadata(markers: JSONObject, fields: JSONObject = {}): { metadata?: Metadata } {
  const openai: JSONObject = {};
  for (const [key, value] of Object.entries(markers)) if (value !== undefined) openai[key] = value;
  const kept = fieldsExcept(fields, []);
  if (Object.keys(kept).length > 0) openai.fields = kept;
  return Object.keys(openai).length === 0 ? {} : { metadata: { openai } };
}

/** The fields of `object` other than `keys`. */
export function fieldsExcept(object: JSONObject, keys: readonly string[]): JSONObject {
  const rest: JSONObject = {};
  for (const [key, value] of Object.entries(object)) {
    if (!keys.includes(key) && value !== undefined) setField(rest, key, value);
  }
  return rest;
}

export function isObject(value: unknown): value is JSONObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A tool call's input parsed from its `arguments` string, and the raw string when parsing and serializing
 * again would not give it back byte for byte (spacing, key order, or arguments that are not JSON at all).
 */
export function parseArguments(raw: string): { input: JSONValue; arguments?: string } {
  try {
    const input = JSON.parse(raw) as JSONValue;
    return JSON.stringify(input) === raw ? { input } : { input, arguments: raw };
  } catch {
    return { input: raw, arguments: raw };
  }
}

/**
 * The `arguments` string for a call: the raw string it came with when it still says the same as `input`
 * (a strategy may have changed the input since), else `input` as JSON.
 */
export function serializeArguments(input: JSONValue, raw: JSONValue | undefined): string {
  if (typeof raw === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      // Arguments that were not JSON are kept as the string input; send the (possibly edited) string.
      return typeof input === 'string' ? input : JSON.stringify(input);
    }
    if (deepEqual(parsed, input)) return raw;
  }
  return JSON.stringify(input);
}

/** Parses a `data:<media type>;base64,<data>` URL. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return match === null ? undefined : { mediaType: match[1]!, data: match[2]! };
}

export function isUrl(value: string): boolean {
  return value.startsWith('https://') || value.startsWith('http://') || value.startsWith('data:');
}

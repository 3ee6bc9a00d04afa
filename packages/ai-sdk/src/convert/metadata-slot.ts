import { isJSONValue, type JSONObject, type Metadata } from '@compaction/core';

/**
 * The key under a core message's (or part's) `metadata` that keeps what only the AI SDK has a place for
 * (provider options, the original shape of data or tool output...).
 */
export const aiSdkMetadataKey = 'aiSdk';

/**
 * The key under an AI SDK message's (or part's) `providerOptions` that keeps what only core messages have a
 * place for (id, metadata such as compaction marks, reasoning signatures...). Providers read only their own
 * key of `providerOptions`, so this one is never sent anywhere.
 */
export const compactionOptionsKey = 'compaction';

/** A plain record. */
export type JSONRecord = JSONObject;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What an AI SDK element's `providerOptions` split into. */
export interface ReadOptions {
  /** Core-only fields that an earlier conversion to the AI SDK kept there. */
  slot?: Record<string, unknown>;
  /** The provider options to record in core metadata (absent when there is nothing to restore). */
  rest?: JSONRecord;
  /** Whether a slot was found and used (the caller verifies such decodings). */
  usedSlot: boolean;
}

/** Splits `providerOptions` into the compaction slot (when `useSlots`) and the rest. */
export function readProviderOptions(providerOptions: unknown, useSlots: boolean): ReadOptions {
  if (providerOptions === undefined) return { usedSlot: false };
  if (!isRecord(providerOptions) || !isJSONValue(providerOptions)) {
    throw new TypeError('providerOptions must be a JSON object');
  }
  const options = providerOptions as JSONRecord;
  const slot = options[compactionOptionsKey];
  if (useSlots && isRecord(slot)) {
    const { [compactionOptionsKey]: _slot, ...rest } = options;
    return { slot, usedSlot: true, ...(Object.keys(rest).length > 0 ? { rest } : {}) };
  }
  return { rest: options, usedSlot: false };
}

/** Joins recorded provider options and a compaction slot back into `providerOptions`. */
export function writeProviderOptions(
  rest: unknown,
  slot: Record<string, unknown>,
): Record<string, JSONObject> | undefined {
  const restRecord = isRecord(rest) ? (rest as Record<string, JSONObject>) : undefined;
  if (Object.keys(slot).length === 0) return restRecord;
  return { ...restRecord, [compactionOptionsKey]: slot as JSONObject };
}

/**
 * Core metadata from a slot's `metadata` and the AI SDK extras. Extras are set only when there are some.
 */
export function joinMetadata(
  slot: Record<string, unknown> | undefined,
  extras: JSONRecord,
): Metadata | undefined {
  const own = isRecord(slot?.metadata) ? (slot.metadata as Metadata) : undefined;
  if (Object.keys(extras).length === 0) return own;
  return { ...own, [aiSdkMetadataKey]: extras };
}

/** Splits core metadata into the AI SDK extras and the core's own metadata (for the slot). */
export function splitMetadata(metadata: Metadata | undefined): { extras: JSONRecord; own?: Metadata } {
  if (metadata === undefined) return { extras: {} };
  const { [aiSdkMetadataKey]: extras, ...own } = metadata;
  const hasExtras = isRecord(extras);
  // Metadata that was only the extras came from the AI SDK; anything else (even `{}`) is the core's own.
  const keepOwn = Object.keys(own).length > 0 || !(aiSdkMetadataKey in metadata) || !hasExtras;
  return {
    extras: hasExtras ? (extras as JSONRecord) : {},
    ...(keepOwn ? { own: hasExtras ? own : metadata } : {}),
  };
}

/** Copies `value` into `target[key]` unless it is undefined. */
export function setDefined(target: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== undefined) target[key] = value;
}

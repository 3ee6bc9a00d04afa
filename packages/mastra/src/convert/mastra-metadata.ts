import type { JSONObject, JSONValue, Metadata } from '@compaction/core';

/** The key of core message and part metadata under which the converters keep what only Mastra messages have. */
export const mastraMetadataKey = 'mastra';

/** What a Mastra message had besides its parts: its fields and the rest of its content, as JSON. */
export interface MastraEnvelope extends JSONObject {
  id: string;
  /** `createdAt` as an ISO date. */
  createdAt: string;
  threadId?: string;
  resourceId?: string;
  type?: string;
  /** The content without `format` and `parts` (`content`, `toolInvocations`, `metadata`...). */
  content: JSONObject;
}

/**
 * What a core message converted from a Mastra message records, so the Mastra message can be rebuilt: one
 * Mastra assistant message (its steps, tool calls and their results) becomes several core messages, its pieces.
 */
export interface MastraMessageMark extends JSONObject {
  message: MastraEnvelope;
  /** This message's place among the pieces, and how many there were. */
  piece: number;
  pieces: number;
  /** For each part of the core content, the index of the Mastra part it came from. */
  parts: number[];
  /** Mastra parts the model never sees (step boundaries, sources, calls still pending), with their index. */
  detached?: Array<{ index: number; part: JSONValue }>;
}

/** Reads the mark of a core message converted from a Mastra message. */
export function mastraMarkOf(metadata: Metadata | undefined): MastraMessageMark | undefined {
  const value = metadata?.[mastraMetadataKey];
  if (!isRecord(value) || !isRecord(value.message) || typeof value.piece !== 'number') return undefined;
  return value as MastraMessageMark;
}

/** Reads what a core part kept of the Mastra part it came from. */
export function mastraPartMarkOf(metadata: Metadata | undefined): JSONObject | undefined {
  const value = metadata?.[mastraMetadataKey];
  return isRecord(value) ? (value as JSONObject) : undefined;
}

/** Metadata holding `mark` under the Mastra key, or nothing when the mark is empty. */
export function withMastraMark(mark: JSONObject): { metadata?: Metadata } {
  const entries = Object.entries(mark).filter(([, value]) => value !== undefined);
  return entries.length === 0 ? {} : { metadata: { [mastraMetadataKey]: Object.fromEntries(entries) } };
}

/** Whether a value is a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

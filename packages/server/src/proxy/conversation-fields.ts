import { createHash } from 'node:crypto';
import type { JSONObject, JSONValue } from '@compaction/core';
import { HttpError } from '../errors/http-error.js';
import type { ProxiedFormat } from './upstreams.js';

/** Where a format keeps its conversation in a request: the list of turns, and the other fields it spans. */
interface ConversationFields {
  listField: string;
  /** The list field and the fields beside it that hold conversation (Anthropic's `system`). */
  fields: readonly string[];
}

/** The same facts the CLI's request formats use, for the requests the proxy compacts. */
export const conversationFieldsOf: Record<ProxiedFormat, ConversationFields> = {
  anthropic: { listField: 'messages', fields: ['system', 'messages'] },
  'openai-chat': { listField: 'messages', fields: ['messages'] },
  'openai-responses': { listField: 'input', fields: ['input'] },
};

/** A short, stable hash of a JSON value (its serialization as the request carried it). */
export function hashJson(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(value) ?? 'undefined')
    .digest('hex')
    .slice(0, 32);
}

/**
 * A value without its Anthropic `cache_control` marks. Agents move their cache breakpoint to the newest turn on
 * every request, so a turn is the same turn with or without its mark; the prompt cache does not key on them.
 */
export function withoutCacheMarks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheMarks);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (key !== 'cache_control') copy[key] = withoutCacheMarks(entry);
  }
  return copy;
}

/**
 * The hash of a turn or of the fields beside the list, its cache marks left out. A turn without marks (most of
 * them) is hashed as it is: copying it first would hash the same JSON, and every turn of a large request would
 * be copied for nothing.
 */
export function hashTurn(value: unknown): string {
  return hashJson(hasCacheMarks(value) ? withoutCacheMarks(value) : value);
}

/** Whether a value holds a `cache_control` mark anywhere, found without copying or counting. */
function hasCacheMarks(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasCacheMarks);
  if (typeof value !== 'object' || value === null) return false;
  for (const key in value) {
    if (key === 'cache_control' || hasCacheMarks((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/** How many `cache_control` marks a value holds. */
export function countCacheMarks(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countCacheMarks(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  return Object.entries(value).reduce(
    (sum, [key, entry]) => sum + (key === 'cache_control' ? 1 : countCacheMarks(entry)),
    0,
  );
}

/** The fields beside the list that hold conversation, as one value to hash (Anthropic's system prompt). */
export function besideList(format: ProxiedFormat, body: Record<string, unknown>): JSONObject {
  const { listField, fields } = conversationFieldsOf[format];
  const beside: JSONObject = {};
  for (const field of fields) {
    if (field !== listField && body[field] !== undefined) beside[field] = body[field] as JSONValue;
  }
  return beside;
}

/** What names a conversation the client did not name: a header value must be short and plain. */
export const explicitKey = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The key of a request's conversation: the `x-compaction-conversation` header when the client sends one,
 * else a hash of its first messages (the system prompt and the turns up to the first user turn), which stay
 * the same as the conversation grows.
 */
export function conversationKey(
  format: ProxiedFormat,
  body: Record<string, unknown>,
  list: readonly unknown[],
  header: string | string[] | undefined,
): string {
  if (header !== undefined) {
    const value = Array.isArray(header) ? header[0] : header;
    if (value === undefined || !explicitKey.test(value)) {
      throw new HttpError({
        status: 400,
        errorCode: 'invalid-conversation-header',
        message: 'x-compaction-conversation must be 1 to 128 letters, digits, ".", "_", ":" or "-"',
      });
    }
    return `named:${value}`;
  }
  const firstUser = list.findIndex(
    (item) => typeof item === 'object' && item !== null && (item as { role?: unknown }).role === 'user',
  );
  const first = list.slice(0, firstUser === -1 ? 1 : firstUser + 1);
  return `${format}:${hashTurn([besideList(format, body), first]).slice(0, 16)}`;
}

/** The request with its conversation fields replaced (in place in the key order, others removed). */
export function withConversation(
  format: ProxiedFormat,
  body: Record<string, unknown>,
  conversation: Record<string, unknown>,
): Record<string, unknown> {
  const { fields } = conversationFieldsOf[format];
  const result: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (!fields.includes(name)) result[name] = value;
    else if (conversation[name] !== undefined) result[name] = conversation[name];
  }
  for (const name of fields) {
    if (result[name] === undefined && conversation[name] !== undefined) result[name] = conversation[name];
  }
  return result;
}

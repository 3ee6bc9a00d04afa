import type { IncomingMessage } from 'node:http';
import { badRequest } from '../errors/http-error.js';
import { readJsonBody } from './read-json-body.js';

/** Fields of a request body a client writes when it posts a conversation where `conversation` belongs. */
const conversationFields = ['messages', 'input', 'model', 'system', 'max_tokens'];

/**
 * Reads a request body that must be a JSON object (an empty body is `{}`) with only the `allowed` fields. A
 * provider request posted as the whole body, instead of in `conversation`, is told where it goes.
 */
export async function readObjectBody(
  request: IncomingMessage,
  maxBytes: number,
  allowed: readonly string[],
): Promise<Record<string, unknown>> {
  const value = (await readJsonBody(request, maxBytes)) ?? {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('invalid-request', 'the request body must be a JSON object');
  }
  const unknown = Object.keys(value).filter((field) => !allowed.includes(field));
  if (unknown.length === 0) return value as Record<string, unknown>;
  const named = unknown.map((field) => JSON.stringify(field)).join(', ');
  const expected = `expected ${allowed.map((field) => JSON.stringify(field)).join(', ')}`;
  if (allowed.includes('conversation') && unknown.some((field) => conversationFields.includes(field))) {
    throw badRequest(
      'invalid-request',
      `unknown fields ${named}: the conversation goes in "conversation", as in ` +
        '{"conversation": {"model": "...", "messages": [...]}}; ' +
        expected,
    );
  }
  throw badRequest('invalid-request', `unknown field${unknown.length > 1 ? 's' : ''} ${named}; ${expected}`);
}

/** Checks an `instructions` field. */
export function instructionsOf(value: unknown): string | undefined {
  if (value !== undefined && typeof value !== 'string') {
    throw badRequest('invalid-request', 'instructions must be a string');
  }
  return value;
}

/** The `force` field of a manual compaction: a boolean, false when absent; 400 otherwise. */
export function forceOf(value: unknown): boolean {
  if (value !== undefined && typeof value !== 'boolean') {
    throw badRequest('invalid-request', 'force must be true or false');
  }
  return value === true;
}

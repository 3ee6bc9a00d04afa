import type { JSONObject } from '@compaction/core';

/** The arguments of one call of the `recall` tool. */
export interface RecallRequest {
  /** The handle a placeholder named, such as `a1b2c3d4`. */
  handle: string;
  /** First line to return, counting from 1. */
  fromLine?: number;
  /** Last line to return, included. */
  toLine?: number;
  /** Only the lines that contain this text (compared without case), each after its line number. */
  pattern?: string;
}

/** The arguments of a search of the session's archive, offered when the store can search. */
export interface RecallSearchRequest {
  /** Words that must all appear, and/or phrases in double quotes. */
  query: string;
}

/** What one call of the `recall` tool asks: one item by handle, or, when the store can search, a search. */
export type RecallToolInput = RecallRequest | RecallSearchRequest;

/** The longest pattern accepted: a search, not a second copy of the text. */
const maximumPatternLength = 1000;

/** The JSON Schema of {@link RecallRequest}, as models are given it. */
export const recallInputSchema: JSONObject = {
  type: 'object',
  properties: {
    handle: { type: 'string', description: 'The handle named in the placeholder, such as "a1b2c3d4".' },
    fromLine: { type: 'integer', minimum: 1, description: 'First line to return, counting from 1.' },
    toLine: { type: 'integer', minimum: 1, description: 'Last line to return, included.' },
    pattern: {
      type: 'string',
      minLength: 1,
      maxLength: maximumPatternLength,
      description: 'Return only the lines containing this text (case-insensitive), with their line numbers.',
    },
  },
  required: ['handle'],
  additionalProperties: false,
};

/** The longest query accepted, as the stores' search takes it. */
const maximumQueryLength = 1000;

/**
 * The JSON Schema of {@link RecallToolInput} for a tool whose store can search: `query` besides `handle`,
 * neither required (the tool asks for one of them in words when neither or both are given).
 */
export const recallSearchInputSchema: JSONObject = {
  ...recallInputSchema,
  properties: {
    ...(recallInputSchema.properties as JSONObject),
    query: {
      type: 'string',
      minLength: 1,
      maxLength: maximumQueryLength,
      description:
        'Instead of a handle: words (all must appear, any case) or "phrases in quotes" to find archived ' +
        'text by; answers the matching handles with a snippet of each, to recall by handle next.',
    },
  },
  required: [],
};

/**
 * The search in `input`, or what is wrong with it, or `undefined` when `input` asks for no search (then it
 * is a {@link RecallRequest} or wrong as one).
 */
export function parseRecallSearch(input: unknown): RecallSearchRequest | string | undefined {
  if (typeof input !== 'object' || input === null || !('query' in input)) return undefined;
  const { query, ...rest } = input as Record<string, unknown>;
  const others = Object.keys(rest);
  if (others.length > 0) {
    const named = others.map((key) => `"${key}"`).join(', ');
    return `"query" searches on its own: call again with either "query" or "handle" (not ${named})`;
  }
  if (typeof query !== 'string' || query.trim() === '') return '"query" must be some words to look for';
  if (query.length > maximumQueryLength) return `"query" must be at most ${maximumQueryLength} characters`;
  return { query };
}
/**
 * The request in `input`, or what is wrong with it, in words a model can act on (which name `query` too when
 * the tool `searches`).
 */
export function parseRecallRequest(input: unknown, searches = false): RecallRequest | string {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return 'the arguments must be an object such as {"handle": "a1b2c3d4"}';
  }
  const { handle, fromLine, toLine, pattern, ...rest } = input as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) return `unknown argument ${unknown.map((key) => `"${key}"`).join(', ')}`;
  if (typeof handle !== 'string' || handle.trim() === '') {
    const search = searches ? ', or pass "query" instead: words to search the archive for' : '';
    return `"handle" must be the handle a placeholder named${search}`;
  }
  for (const [name, line] of [
    ['fromLine', fromLine],
    ['toLine', toLine],
  ] as const) {
    if (line !== undefined && (!Number.isInteger(line) || (line as number) < 1)) {
      return `"${name}" must be a whole number from 1`;
    }
  }
  if (typeof fromLine === 'number' && typeof toLine === 'number' && toLine < fromLine) {
    return '"toLine" must not come before "fromLine"';
  }
  if (pattern !== undefined && (typeof pattern !== 'string' || pattern === '')) {
    return '"pattern" must be some text to look for';
  }
  if (typeof pattern === 'string' && pattern.length > maximumPatternLength) {
    return `"pattern" must be at most ${maximumPatternLength} characters`;
  }
  const request: RecallRequest = { handle: handle.trim() };
  if (typeof fromLine === 'number') request.fromLine = fromLine;
  if (typeof toLine === 'number') request.toLine = toLine;
  if (typeof pattern === 'string') request.pattern = pattern;
  return request;
}

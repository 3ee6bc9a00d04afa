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

/** The request in `input`, or what is wrong with it, in words a model can act on. */
export function parseRecallRequest(input: unknown): RecallRequest | string {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return 'the arguments must be an object such as {"handle": "a1b2c3d4"}';
  }
  const { handle, fromLine, toLine, pattern, ...rest } = input as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) return `unknown argument ${unknown.map((key) => `"${key}"`).join(', ')}`;
  if (typeof handle !== 'string' || handle.trim() === '')
    return '"handle" must be the handle a placeholder named';
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

import type { IncomingMessage } from 'node:http';
import { badRequest } from '../errors/http-error.js';
import { describeExcessiveNesting, findExcessiveNesting } from '../formats/json-depth.js';
import { parseJsonWithLocation } from '../formats/json-location.js';
import { readRawBody } from './read-raw-body.js';

/**
 * Reads a request body as JSON (see {@link readRawBody} for the size limit), refusing bodies nested more than
 * the allowed depth with 400. An empty body reads as `undefined`.
 */
export async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  const text = (await readRawBody(request, maxBytes)).toString('utf8');
  if (text.trim() === '') return undefined;
  const parsed = parseJsonWithLocation(text);
  if (!parsed.ok) {
    const { line, column } = parsed.location;
    throw badRequest('invalid-json', `invalid JSON at line ${line}, column ${column}: ${parsed.reason}`);
  }
  // Checked before anything recursive (validation, conversion, counting) walks the value.
  const nesting = findExcessiveNesting(parsed.value);
  if (nesting !== undefined) {
    throw badRequest(
      'too-deeply-nested',
      describeExcessiveNesting({ ...nesting, path: nesting.path || 'the request body' }),
    );
  }
  return parsed.value;
}

import type { IncomingMessage } from 'node:http';
import { describeExcessiveNesting, findExcessiveNesting, parseJsonWithLocation } from '@compaction/formats';
import { badRequest } from '../errors/http-error.js';
import { readRawBody } from './read-raw-body.js';

/**
 * Strict UTF-8: a byte sequence that is not UTF-8 is an error, not a U+FFFD that would change the text
 * without a word. A byte order mark is kept, so the JSON parser refuses it as before.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads a request body as JSON (see {@link readRawBody} for the size limit), refusing with 400 a body that is
 * not UTF-8 (`invalid-utf8`), not JSON (`invalid-json`) or nested more than the allowed depth
 * (`too-deeply-nested`). An empty body reads as `undefined`.
 */
export async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  const text = decodeUtf8(await readRawBody(request, maxBytes));
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

function decodeUtf8(bytes: Buffer): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw badRequest('invalid-utf8', 'the request body is not valid UTF-8');
  }
}

import type { IncomingMessage } from 'node:http';
import { badRequest, HttpError } from '../errors/http-error.js';
import { parseJsonWithLocation } from '../formats/json-location.js';

/**
 * Reads a request body as JSON, refusing bodies over `maxBytes` with 413. An oversize body is drained
 * rather than cut off, so the client reads the answer instead of a reset connection.
 */
export function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const tooLarge = () =>
      new HttpError({
        status: 413,
        errorCode: 'payload-too-large',
        message: `the request body is larger than the limit of ${maxBytes} bytes`,
      });
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      request.resume();
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let exceeded = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) exceeded = true;
      if (!exceeded) chunks.push(chunk);
    });
    request.on('error', reject);
    request.on('end', () => {
      if (exceeded) return reject(tooLarge());
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve(undefined);
      const parsed = parseJsonWithLocation(text);
      if (!parsed.ok) {
        const { line, column } = parsed.location;
        return reject(
          badRequest('invalid-json', `invalid JSON at line ${line}, column ${column}: ${parsed.reason}`),
        );
      }
      resolve(parsed.value);
    });
  });
}

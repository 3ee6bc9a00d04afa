import type { IncomingMessage } from 'node:http';
import { payloadTooLarge, readBodyPieces, readRawBody, requestAborted } from './read-raw-body.js';

/**
 * Reads a request body as {@link readRawBody} does (the same limit, the same errors), but when the client
 * declared its length, into one buffer of that length allocated up front, each piece copied as it arrives:
 * joining megabytes of pieces at the end would hold the event loop for tens of milliseconds at once. The
 * buffer is the body's own, to transfer to another thread. Node's parser ends a request at its declared
 * length, and a shorter one is an aborted request.
 */
export function readBodyInPlace(request: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  const declaredText = request.headers['content-length'];
  const declared = Number(declaredText);
  if (declaredText === undefined || !Number.isSafeInteger(declared) || declared < 0) {
    return readRawBody(request, maxBytes);
  }
  if (declared > maxBytes) return Promise.reject(payloadTooLarge(maxBytes));
  const body = new Uint8Array(declared);
  let size = 0;
  return readBodyPieces<Uint8Array>(
    request,
    (chunk) => {
      body.set(chunk.subarray(0, Math.max(0, declared - size)), size);
      size += chunk.length;
      return undefined;
    },
    () => (size === declared ? body : requestAborted()),
  );
}

import type { IncomingMessage } from 'node:http';
import { HttpError } from '../errors/http-error.js';

/** The 413 of a body over the limit. */
export function payloadTooLarge(maxBytes: number): HttpError {
  return new HttpError({
    status: 413,
    errorCode: 'payload-too-large',
    message: `the request body is larger than the limit of ${maxBytes} bytes`,
  });
}

/**
 * Reads a request body as the bytes the client sent, refusing bodies over `maxBytes` with 413 as soon as they
 * pass it (Node's server has no body size limit; its `requestTimeout` bounds only how long a body may take): a
 * declared `Content-Length` over the limit is refused before any of the body is read, and a chunked body the
 * moment its running size passes the limit. Nothing past the limit is kept. The caller answers 413 with
 * `Connection: close`, and Node closes the connection once that answer is written, discarding what the client
 * still sends instead of reading it to the end. The bytes are kept as they are: a request the proxy does not
 * change is forwarded with them.
 */
export function readRawBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // Node's parser admits only digits here; a length too long to be exact is still over any limit.
    const declared = request.headers['content-length'] ?? '';
    if (/^[0-9]+$/.test(declared) && Number(declared) > maxBytes) {
      reject(payloadTooLarge(maxBytes));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    readBodyPieces(
      request,
      (chunk) => {
        size += chunk.length;
        if (size > maxBytes) {
          chunks.length = 0;
          return payloadTooLarge(maxBytes);
        }
        chunks.push(chunk);
        return undefined;
      },
      () => Buffer.concat(chunks),
    ).then(resolve, reject);
  });
}

/**
 * Reads a request body piece by piece: `take` keeps each piece (or refuses the body, which stops the read) and
 * `finish` makes the result once the body has ended (or refuses it). A client that goes away mid-body, or is
 * cut off by the request timeout, ends the read with an error.
 */
export function readBodyPieces<T>(
  request: IncomingMessage,
  take: (chunk: Buffer) => Error | undefined,
  finish: () => T | Error,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onAborted);
      request.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      const refused = take(chunk);
      if (refused === undefined) return;
      stop();
      reject(refused);
    };
    const onEnd = () => {
      stop();
      const result = finish();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onAborted = (error?: Error) => {
      stop();
      reject(error ?? requestAborted());
    };
    const onClose = () => {
      if (!request.complete) onAborted();
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onAborted);
    request.on('close', onClose);
  });
}

/** The 400 of a request whose client closed it before its body ended. */
export function requestAborted(): HttpError {
  return new HttpError({
    status: 400,
    errorCode: 'request-aborted',
    message: 'the client closed the request',
  });
}

import type { IncomingMessage } from 'node:http';
import { HttpError } from '../errors/http-error.js';
import { payloadTooLarge } from '../serve/read-json-body.js';

/**
 * Reads a request body as the bytes the client sent, refusing one over `maxBytes` with 413 as soon as it
 * passes the limit. The bytes are kept as they are: a request the proxy does not change is forwarded with them.
 */
export function readRawBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      reject(payloadTooLarge(maxBytes));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onAborted);
      request.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      stop();
      chunks.length = 0;
      reject(payloadTooLarge(maxBytes));
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onAborted = (error?: Error) => {
      stop();
      reject(
        error ??
          new HttpError({
            status: 400,
            errorCode: 'request-aborted',
            message: 'the client closed the request',
          }),
      );
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

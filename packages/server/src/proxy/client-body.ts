import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { HttpError } from '../errors/http-error.js';
import { payloadTooLarge, readRawBody } from '../serve/read-raw-body.js';

/** A client's request body as the proxy forwards it, with the headers that describe it. */
export interface ClientBody {
  /** The body, decoded when the client compressed it with an encoding the proxy reads. */
  body: Buffer;
  /** The client's headers, without `content-encoding` once the body is decoded. */
  headers: IncomingHttpHeaders;
  /** The content encoding the proxy could not read (the body then goes on as it came, uncompacted). */
  unreadEncoding?: string;
}

const decoders: Record<string, (body: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * Reads a client's body and decodes a `gzip`, `deflate` or `br` content encoding, so a compressed
 * conversation is compacted like any other; the decoded body is bounded by `maxBytes` like a plain one (a
 * small compressed body cannot unpack past it). A body that does not decode is refused with 400; an encoding
 * the proxy does not know is left as it is and reported in `unreadEncoding`.
 */
export async function readClientBody(request: IncomingMessage, maxBytes: number): Promise<ClientBody> {
  const raw = await readRawBody(request, maxBytes);
  const encoding = String(request.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  if (encoding === '' || encoding === 'identity') return { body: raw, headers: request.headers };
  const decode = decoders[encoding];
  if (decode === undefined) return { body: raw, headers: request.headers, unreadEncoding: encoding };
  let body: Buffer;
  try {
    body = decode(raw, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw payloadTooLarge(maxBytes);
    throw new HttpError({
      status: 400,
      errorCode: 'invalid-content-encoding',
      message: `the request body is not valid ${encoding}: ${(error as Error).message}`,
    });
  }
  const { 'content-encoding': _decoded, ...headers } = request.headers;
  return { body, headers };
}

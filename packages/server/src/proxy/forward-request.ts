import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { HttpError } from '../errors/http-error.js';

/** Headers that belong to one connection (RFC 9110 §7.6.1), never passed on. */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The proxy's own request header: read by the proxy, not sent on. */
export const conversationHeader = 'x-compaction-conversation';

/**
 * The end-to-end headers of a message: all but the hop-by-hop ones (those listed in its `connection` header
 * too) and `dropped`.
 */
function endToEndHeaders(
  headers: IncomingHttpHeaders,
  dropped: ReadonlySet<string> = new Set(),
): OutgoingHttpHeaders {
  const listed = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase()),
  );
  const copied: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || hopByHop.has(name) || listed.has(name) || dropped.has(name)) continue;
    copied[name] = value;
  }
  return copied;
}

/**
 * Request headers that do not go upstream: the host, the length (the body may have changed) and the proxy's
 * own; `expect: 100-continue` was answered by this server, and the body goes upstream whole, without waiting.
 */
const requestOnlyHeaders = new Set(['host', 'content-length', 'expect', conversationHeader]);

/**
 * A request's headers as they go upstream: everything but hop-by-hop headers, the host and the proxy's own
 * (every `x-compaction-*` header: they are meant for this proxy, and the upstream has no use for them).
 */
export function upstreamHeaders(headers: IncomingHttpHeaders, bodyLength: number): OutgoingHttpHeaders {
  const copied = endToEndHeaders(headers, requestOnlyHeaders);
  for (const name of Object.keys(copied)) if (name.startsWith('x-compaction-')) delete copied[name];
  return { ...copied, 'content-length': bodyLength };
}

/**
 * How long the upstream may stay silent, in milliseconds: before its answer's headers and between the
 * chunks of its body. A model thinking before the first byte of an answer that is not streamed takes minutes.
 */
export const defaultUpstreamTimeoutMs = 10 * 60_000;

/** An upstream response's headers as they go back to the client. */
export function clientHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  return endToEndHeaders(headers);
}

/**
 * Sends a request upstream and resolves with the response as soon as its headers arrive; its body is left
 * unread, to be piped to the client as it comes. Aborting `signal` (the client went away) cuts the request.
 */
export function sendUpstream(
  target: URL,
  method: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
  signal: AbortSignal,
  timeoutMs: number = defaultUpstreamTimeoutMs,
): Promise<IncomingMessage> {
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(
      target,
      { method, headers: upstreamHeaders(headers, body.length), signal },
      resolve,
    );
    let timedOut = false;
    // The socket's idle timeout covers both the wait for the answer and a stream that stops mid-way; a
    // stream cut so ends with an error, which closes the client's connection.
    outgoing.setTimeout(timeoutMs, () => {
      timedOut = true;
      outgoing.destroy(new Error(`no answer for ${timeoutMs} ms`));
    });
    outgoing.on('error', (error) =>
      reject(
        signal.aborted
          ? error
          : timedOut
            ? new HttpError({
                status: 504,
                errorCode: 'upstream-timeout',
                message: `the upstream ${target.origin} sent nothing for ${timeoutMs} ms`,
              })
            : new HttpError({
                status: 502,
                errorCode: 'upstream-unreachable',
                message: `the upstream ${target.origin} could not be reached: ${error.message}`,
              }),
      ),
    );
    outgoing.end(body);
  });
}

/**
 * Passes an upstream response to the client as it arrives: status, headers and body bytes unchanged. `read`
 * is what was already read of the body (the opening of a stream), written first.
 */
export function pipeResponse(
  upstream: IncomingMessage,
  response: ServerResponse,
  read?: { head: Buffer; ended: boolean },
): Promise<void> {
  response.writeHead(upstream.statusCode ?? 502, upstream.statusMessage, clientHeaders(upstream.headers));
  // Headers reach the client at once, before the first event of a stream that may take a while.
  response.flushHeaders();
  if (read !== undefined) {
    if (read.ended) {
      response.end(read.head);
      return Promise.resolve();
    }
    response.write(read.head);
  }
  return new Promise((resolve) => {
    upstream.pipe(response);
    upstream.on('end', resolve);
    upstream.on('error', () => {
      response.destroy();
      resolve();
    });
    response.on('close', () => {
      if (!upstream.complete) upstream.destroy();
      resolve();
    });
  });
}

/** Writes a response whose body was read whole (an error kept to check for a context overflow). */
export function sendBuffered(upstream: IncomingMessage, body: Buffer, response: ServerResponse): void {
  response.writeHead(upstream.statusCode ?? 502, upstream.statusMessage, clientHeaders(upstream.headers));
  response.end(body);
}

/**
 * Reads a response body whole. Only refusals are read so (a 400 or 413 that may be a context overflow): the
 * providers answer them with a short JSON body, and the operator's upstream is trusted not to send more.
 */
export async function readWhole(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The JSON of an error body, decoded as its `content-encoding` says; undefined when it is not JSON. */
export function errorJson(body: Buffer, encoding: string | undefined): unknown {
  try {
    const decoded =
      encoding === 'gzip'
        ? gunzipSync(body)
        : encoding === 'br'
          ? brotliDecompressSync(body)
          : encoding === 'deflate'
            ? inflateSync(body)
            : body;
    return JSON.parse(decoded.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Whether a response is a server-sent-events stream sent without a content encoding, so it can be read as text. */
export function isPlainEventStream(upstream: IncomingMessage): boolean {
  const type = String(upstream.headers['content-type'] ?? '');
  const encoding = String(upstream.headers['content-encoding'] ?? 'identity');
  return type.startsWith('text/event-stream') && encoding === 'identity';
}

import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/**
 * A request whose body, already read, is read again: what the route handlers take, so a body read once (to
 * measure it, or on another thread) goes through the same handler as a request just arrived. It is complete:
 * nothing of it is left unread on the connection.
 */
export function replayedRequest(
  body: Uint8Array,
  headers: IncomingHttpHeaders,
  method = 'POST',
  url = '/',
): IncomingMessage {
  const stream = Readable.from([Buffer.from(body.buffer, body.byteOffset, body.byteLength)], {
    objectMode: false,
  });
  return Object.assign(stream, {
    headers: { ...headers, 'content-length': String(body.byteLength) },
    complete: true,
    method,
    url,
  }) as unknown as IncomingMessage;
}

/** The answer a route handler wrote: what is sent back from a compaction thread. */
export interface RecordedAnswer {
  status: number;
  headers: OutgoingHttpHeaders;
  body: string;
}

/**
 * The part of a `ServerResponse` that `sendJson` and `sendError` use, keeping what they write instead of
 * sending it, so the answer can be sent from another thread.
 */
export class RecordedResponse {
  status = 0;
  headers: OutgoingHttpHeaders = {};
  body = '';
  headersSent = false;
  writableEnded = false;
  readonly destroyed = false;

  writeHead(status: number, headers: OutgoingHttpHeaders = {}): this {
    this.status = status;
    this.headers = { ...headers };
    this.headersSent = true;
    return this;
  }

  end(text?: string): this {
    if (text !== undefined) this.body = text;
    this.writableEnded = true;
    return this;
  }

  /** This, typed as what the handlers write to. */
  asServerResponse(): ServerResponse {
    return this as unknown as ServerResponse;
  }

  /** What was written. */
  answer(): RecordedAnswer {
    return { status: this.status, headers: this.headers, body: this.body };
  }
}

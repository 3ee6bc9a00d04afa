import type { IncomingHttpHeaders } from 'node:http';

/** A request the server received, with its JSON body parsed. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** The body exactly as it arrived, to check that a proxy passed it on byte for byte. */
  rawBody: string;
  /** `performance.now()` when the request arrived, to check how long a client waited before retrying. */
  receivedAt: number;
}

/** What the server answers: a JSON body, or raw text (for malformed responses), after an optional delay. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  raw?: string;
  /**
   * A body written piece by piece (a server-sent-events stream): each piece is written as soon as the iterable
   * yields it, so a test can hold the rest back until it has seen the first piece arrive.
   */
  chunks?: AsyncIterable<string> | readonly string[];
  delayMs?: number;
}

/** A loopback HTTP server that records requests and answers from per-path queues or handlers. */
export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  /** One-shot replies for a path, used in order before the path's handler. */
  enqueue(path: string, ...replies: Reply[]): void;
  /** The reply for a path once its queue is empty. */
  handle(path: string, handler: (request: RecordedRequest) => Reply): void;
  /** Forgets recorded requests, queued replies and handlers, so one server can serve many tests. */
  reset(): void;
  close(): Promise<void>;
}

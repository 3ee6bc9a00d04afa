import type { IncomingMessage, ServerResponse } from 'node:http';
import { CompactionError } from '@compaction/core';
import { CliError } from '../errors/cli-error.js';
import { HttpError } from '../errors/http-error.js';
import { busyRetryAfterSeconds } from './compaction-limiter.js';

/** Answers with a JSON body. */
export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/**
 * Answers an error as `{"error": {"code", "message"}}` with its status: an `HttpError` as it says, a CLI or
 * Compaction error as a 4xx or 5xx by its code, anything else as a 500 whose details go to standard error
 * only. A 503 carries `Retry-After`. With `closing`, or when the request's body was left unread, the
 * connection closes after the answer.
 */
export function sendError(
  request: IncomingMessage,
  response: ServerResponse,
  error: unknown,
  closing = false,
): void {
  if (response.destroyed || response.writableEnded) return;
  if (response.headersSent) {
    response.end();
    return;
  }
  let status = 500;
  let code = 'internal-error';
  let message = 'internal error';
  if (HttpError.isInstance(error)) {
    status = error.status;
    code = error.errorCode;
    message = error.message;
  } else if (CliError.isInstance(error)) {
    status = 400;
    code = error.reason === 'input' ? 'invalid-messages' : 'invalid-config';
    message = error.message;
  } else if (CompactionError.isInstance(error)) {
    status =
      error.code === 'core/provider-error' ? 502 : error.code === 'core/budget-unreachable' ? 422 : 400;
    if (error.code === 'core/strategy-failed') status = 500;
    // The HTTP API keeps its own flat codes (`budget-unreachable`): the name without the package namespace.
    code = error.code.slice(error.code.indexOf('/') + 1);
    message = error.message;
  } else {
    process.stderr.write(`compaction serve: ${(error as Error)?.stack ?? String(error)}\n`);
  }
  const text = JSON.stringify({ error: { code, message } });
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...(status === 503 ? { 'retry-after': String(busyRetryAfterSeconds) } : {}),
    // A body left unread (refused early, or over the limit) is not read to its end: the connection closes
    // after the answer, and Node discards what the client still sends.
    ...(closing || !request.complete ? { connection: 'close' } : {}),
  });
  response.end(text);
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { CompactionError } from '@compaction/core';
import { FormatError } from '@compaction/formats';
import { CliError } from '../errors/cli-error.js';
import { HttpError } from '../errors/http-error.js';
import { busyRetryAfterSeconds } from './compaction-limiter.js';
import { reportProblem } from './report-problem.js';

/** Answers with a JSON body. */
export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/** What a client is told of a store failure; the details (database, file, its message) are logged only. */
export const storeFailedMessage = 'the session store failed; the server log has the details';

/**
 * The answer to a failure of the session store, whose message names the database or file (an `HttpError`
 * `store-failed`, or a store's own error, coded `store-<kind>/<reason>`): the details go to standard error,
 * the client gets a stable code and a message without them. `undefined` for any other error.
 */
function storeFailureAnswer(error: unknown): { status: number; code: string; message: string } | undefined {
  const storeFailed = HttpError.isInstance(error) && error.errorCode === 'store-failed';
  const storeError =
    !HttpError.isInstance(error) && CompactionError.isInstance(error) && error.code.startsWith('store-');
  if (!storeFailed && !storeError) return undefined;
  reportProblem('session store failure', error);
  if (storeError && (error as CompactionError).code.endsWith('/lock-timeout')) {
    return {
      status: 503,
      code: 'session-busy',
      message: 'the session is being changed by another server; try again',
    };
  }
  return { status: 500, code: 'store-failed', message: storeFailedMessage };
}

/**
 * Answers an error as `{"error": {"code", "message"}}` with its status: an `HttpError` as it says, a CLI or
 * Compaction error as a 4xx or 5xx by its code, a store failure as 500 `store-failed` (503 `session-busy`
 * for a session lock held too long) without its details, anything else as a 500 whose details go to
 * standard error only. A 401 carries `WWW-Authenticate: Bearer`, a 503 `Retry-After`. With `closing`, or
 * when the request's body was left unread, the connection closes after the answer.
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
  const storeFailure = storeFailureAnswer(error);
  if (storeFailure !== undefined) {
    ({ status, code, message } = storeFailure);
  } else if (HttpError.isInstance(error)) {
    status = error.status;
    code = error.errorCode;
    message = error.message;
  } else if (CliError.isInstance(error) || FormatError.isInstance(error)) {
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
    ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}),
    ...(status === 503 ? { 'retry-after': String(busyRetryAfterSeconds) } : {}),
    // A body left unread (refused early, or over the limit) is not read to its end: the connection closes
    // after the answer, and Node discards what the client still sends.
    ...(closing || !request.complete ? { connection: 'close' } : {}),
  });
  response.end(text);
}

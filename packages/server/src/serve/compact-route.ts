import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CompactTask } from '../workers/compact-task.js';
import { type RecordedAnswer, replayedRequest } from '../workers/replayed-exchange.js';
import { type WorkerPool, WorkerUnavailableError } from '../workers/worker-pool.js';
import type { CompactionLimiter } from './compaction-limiter.js';
import { readBodyInPlace } from './read-body-in-place.js';
import { reportProblem } from './report-problem.js';
import type { RouteHandler } from './route-handlers.js';

/**
 * Smallest body compacted on a thread by default: 256 KiB. Below it a compaction takes a few milliseconds of
 * the event loop, about what copying the body to a thread and the answer back costs.
 */
export const defaultThreadedBodyBytes = 256 * 1024;

/** Settings of {@link threadedCompactRoute}. */
export interface ThreadedCompactRouteSettings {
  /** The event loop's own handler of `POST /v1/compact`. */
  inline: RouteHandler;
  pool: Pick<WorkerPool<CompactTask, RecordedAnswer>, 'run'>;
  limiter: CompactionLimiter;
  maxBodyBytes: number;
  /** Bodies this large or larger are compacted on a thread; smaller ones on the event loop. */
  minimumBodyBytes: number;
}

/**
 * `POST /v1/compact` with large bodies answered by a compaction thread: the event loop reads the body (with
 * its size limit), admits the request to the limiter and sends the bytes to the pool; the thread parses,
 * converts, counts, compacts and writes the answer with the same handler, and the event loop sends it. A small
 * body is answered on the event loop, where copying it to a thread and back would cost more than it saves.
 * When the threads cannot compact what the server can (a strategy registered in the server's process that no
 * package provides by name), every request is answered on the event loop, as without threads.
 */
export function threadedCompactRoute(settings: ThreadedCompactRouteSettings): RouteHandler {
  const { inline, pool, limiter, maxBodyBytes, minimumBodyBytes } = settings;
  let threadsUsable = true;
  return async (request: IncomingMessage, response: ServerResponse, parameters) => {
    const body = await readBodyInPlace(request, maxBodyBytes);
    const again = () => replayedRequest(body, request.headers, request.method, request.url);
    if (!threadsUsable || body.byteLength < minimumBodyBytes) return inline(again(), response, parameters);
    // Admitted before the body is parsed: a request waiting for a thread holds its place in the queue.
    const ticket = limiter.admit();
    let answer: RecordedAnswer;
    try {
      // Moved to the thread, not copied: copying megabytes would take the event loop's time again. A thread
      // that cannot compact refuses before the move, so the body is still here to compact on the event loop.
      const moved = ownBuffer(body);
      answer = await ticket.run(() =>
        pool.run({ body: moved, headers: { ...request.headers } }, [moved.buffer as ArrayBuffer]),
      );
    } catch (error) {
      if (!(error instanceof WorkerUnavailableError)) throw error;
      if (threadsUsable) reportProblem('compacting on the event loop, not on threads', error);
      threadsUsable = false;
      ticket.release();
      return inline(again(), response, parameters);
    } finally {
      ticket.release();
    }
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  };
}

/** The bytes in a buffer of their own (a small body may share Node's buffer pool), to transfer whole. */
function ownBuffer(body: Uint8Array): Uint8Array {
  if (body.byteOffset === 0 && body.byteLength === body.buffer.byteLength) return body;
  return new Uint8Array(body);
}

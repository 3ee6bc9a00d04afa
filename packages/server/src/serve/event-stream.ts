import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CompactionSession } from './compaction-session.js';

/** How often a comment is written to an idle stream, so proxies do not close it. */
export const heartbeatMs = 15_000;

/**
 * Opens a session's server-sent-events stream: one `session.compacted` event per compaction, then a last
 * `session.ended` event (`{"sessionId", "reason"}`, the reason `deleted`, `expired` or `shutdown`) when the
 * session goes away or the server stops, after which the stream ends.
 */
export function openEventStream(
  session: CompactionSession,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  response.write(`: session ${session.id}\n\n`);
  const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), heartbeatMs);
  heartbeat.unref();
  const unsubscribe = session.subscribe({
    compacted(event) {
      response.write(
        `id: ${event.id}\nevent: session.compacted\ndata: ${JSON.stringify({ sessionId: session.id, event })}\n\n`,
      );
    },
    ended(reason) {
      stop();
      response.end(`event: session.ended\ndata: ${JSON.stringify({ sessionId: session.id, reason })}\n\n`);
    },
  });
  const stop = () => {
    clearInterval(heartbeat);
    unsubscribe();
  };
  request.on('close', stop);
  response.on('close', stop);
}

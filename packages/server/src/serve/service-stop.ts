import type { ShutdownResult } from './compaction-server-settings.js';
import type { InFlightRequests } from './in-flight-requests.js';
import type { LiveSessions } from './live-sessions.js';
import type { ShutdownWriteGate } from './shutdown-write-gate.js';

/** What a service's stop works on. */
export interface ServiceStopParts {
  inFlight: InFlightRequests;
  sessions: LiveSessions;
  writeGate: ShutdownWriteGate;
  /** From now on new requests are answered 503. */
  startDraining(): void;
  /** Aborts the summaries and thread tasks still running, once the timeout has passed. */
  cutOff(reason: string): void;
  /** Stops the retention sweep and the threads, and saves the sessions' activity. */
  close(): Promise<void>;
}

/**
 * The graceful stop of a service: new requests answered 503, the requests in flight let finish up to the
 * timeout (then cut off, their store writes refused), every event stream ended after them, then what the
 * service runs stopped. Resolves with how many requests were still running at the timeout.
 */
export function serviceStop(parts: ServiceStopParts): (timeoutMs: number) => Promise<ShutdownResult> {
  const { inFlight, sessions, writeGate } = parts;
  return async (timeoutMs) => {
    parts.startDraining();
    inFlight.closeConnectionsAfterAnswers();
    const finished = await inFlight.settled(timeoutMs);
    if (!finished) {
      parts.cutOff('the server stopped before this compaction finished');
      await writeGate.close();
    }
    const unfinished = finished ? 0 : inFlight.size;
    // Event streams end last, so their listeners still hear the compactions of the requests that finished.
    const streamsEnded = inFlight.streamsEnded();
    sessions.close();
    await streamsEnded;
    await parts.close();
    return { unfinished };
  };
}

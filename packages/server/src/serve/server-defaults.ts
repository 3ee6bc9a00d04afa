/**
 * The defaults of `compaction serve`. Worst-case session memory is about `maxSessions × maxSessionBytes`
 * (4 GiB with these), so an operator who raises one should look at the other.
 */
export const serverDefaults = {
  /** Largest request body: 10 MiB. */
  maxBodyBytes: 10 * 1024 * 1024,
  /** Most sessions kept at once. */
  maxSessions: 1000,
  /** Largest session: its messages as JSON, 4 MiB (a full 200k-token window is about 800 kB of text). */
  maxSessionBytes: 4 * 1024 * 1024,
  /** A session unused this long expires: 30 minutes. */
  sessionIdleMs: 30 * 60_000,
  /** The request line and headers must arrive within 10 s. */
  headersTimeoutMs: 10_000,
  /** The whole request, headers and body, must arrive within 60 s. */
  requestTimeoutMs: 60_000,
  /** Compactions running at once. */
  maxConcurrent: 8,
  /** Compactions waiting for a slot; beyond that, 503 with Retry-After. */
  maxQueue: 64,
  /** How long a stop waits for requests in flight before cutting them off. */
  shutdownTimeoutMs: 30_000,
} as const;

/** Default largest request body: 10 MiB. */
export const defaultMaxBodyBytes = serverDefaults.maxBodyBytes;

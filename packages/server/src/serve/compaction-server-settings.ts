import type { BackgroundSettings, CompactionStore, StrategyRegistry } from '@compaction/core';
import type { CompactionSettings } from '../config/resolve-settings.js';
import type { ObservabilitySettings } from '../observability/observability-settings.js';
import type { RequestPolicy } from './request-policy.js';
import type { RetentionSettings } from './retention-sweep.js';

/** Settings of {@link createCompactionServer}; every limit has a default in {@link serverDefaults}. */
export interface CompactionServerSettings {
  /** The operator's settings: the strategies, budget and provider requests run with. */
  settings: CompactionSettings;
  /** The strategies the settings and the requests' configs name are looked up here. */
  registry: StrategyRegistry;
  /** What a request's `config` may choose. Default: the operator's strategies, nothing else. */
  requestPolicy?: RequestPolicy;
  /** Required bearer token; none means no authentication. */
  token?: string;
  /** Largest request body in bytes. */
  maxBodyBytes?: number;
  /** Most sessions kept at once; creating more answers 429. */
  maxSessions?: number;
  /** Largest session (its messages as JSON) in bytes; an append past it answers 413. */
  maxSessionBytes?: number;
  /** A session unused this long expires, in milliseconds. */
  sessionIdleMs?: number;
  /**
   * Time for the request line and headers to arrive, in milliseconds (Node's `headersTimeout`), on the server
   * of {@link createCompactionHttpServer}; a server of the application's own keeps its own timeouts.
   */
  headersTimeoutMs?: number;
  /** Time for the whole request, body included, to arrive, in milliseconds (Node's `requestTimeout`), likewise. */
  requestTimeoutMs?: number;
  /** Compactions running at once. */
  maxConcurrent?: number;
  /** Compactions waiting for a slot; more answer 503 with `Retry-After`. */
  maxQueue?: number;
  /**
   * Worker threads that compact large `POST /v1/compact` bodies and run the strategies of sessions' large
   * compactions off the event loop, so they do not hold up other requests; 0 compacts everything on the event
   * loop. Default: one less than the cores (`os.availableParallelism()`), at least 1 and at most
   * `maxConcurrent`.
   */
  compactionThreads?: number;
  /**
   * Compaction off the critical path for sessions: from `prepareAt` on, an append returns at once while the
   * session's history is compacted in the background, and the append that crosses the trigger uses that result.
   * Sessions' Compactors run on the event loop (their strategies on the compaction threads when the history
   * is large, as in line); a job per session at most, and `maximumConcurrent` (default 4) across all sessions;
   * a session deleted or expired stops its job. Off when absent. A session whose request config moves the
   * trigger under `prepareAt` compacts in line only.
   */
  background?: BackgroundSettings;
  /** Smallest `POST /v1/compact` body, in bytes, compacted on a thread. Default 256 KiB. */
  threadedBodyBytes?: number;
  /** Smallest session history, in tokens, whose strategy runs on a thread. Default 64,000. */
  threadedHistoryTokens?: number;
  /**
   * Smallest session history, in bytes of its messages as JSON, whose conversation a session's answer carries
   * is converted and serialized on a thread. Default 256 KiB.
   */
  threadedAnswerBytes?: number;
  /** Where the provider's API key is read. */
  environment?: NodeJS.ProcessEnv;
  /**
   * Where sessions, their messages, their compactions and the messages those removed are kept, so a restarted
   * server serves the same sessions. None keeps sessions in memory only, lost when the server stops.
   */
  store?: CompactionStore;
  /** Sessions past this age or beyond this size are deleted from the store whole (needs `store`). */
  retention?: RetentionSettings;
  /**
   * Metrics (`GET /metrics`, on unless `metrics: false`, behind the bearer token like every route), the log
   * format and request tracing. Every answer carries an `x-request-id`.
   */
  observability?: ObservabilitySettings;
}

/** What a graceful stop did. */
export interface ShutdownResult {
  /** Requests still running at the timeout, whose connections were then closed (0 when all finished). */
  unfinished: number;
}

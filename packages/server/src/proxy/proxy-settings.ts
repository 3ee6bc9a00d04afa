import type { BackgroundSettings, CompactionStore, StrategyRegistry } from '@compaction/core';
import type { CompactionSettings } from '../config/resolve-settings.js';
import type { ObservabilitySettings } from '../observability/observability-settings.js';
import type { ProxyObserver } from '../observability/service-observability.js';
import type { RetentionSettings } from '../serve/retention-sweep.js';
import type { PrefixUseSummary } from './prefix-use.js';
import type { ProxyArchiveStatus } from './proxy-archive.js';
import type { LearnedLimit } from './upstream-limits.js';
import type { Upstreams } from './upstreams.js';

/** The path of the proxy's own status endpoint (below its base path); every other path is forwarded. */
export const statusPath = '/compaction/status';

/** Default largest request body: 32 MiB (a full window of text with a few images). */
export const defaultProxyMaxBodyBytes = 32 * 1024 * 1024;

/** Settings of {@link createCompactionProxy}. */
export interface CompactionProxySettings {
  /** The operator's settings: the strategies, budget and summarizer every compaction runs with. */
  settings: CompactionSettings;
  /** The strategies the settings name are looked up here. */
  registry: StrategyRegistry;
  /** Where requests go, by provider. */
  upstreams: Upstreams;
  /**
   * The path the application mounts the proxy under, such as `/llm`: removed from each request's path before
   * it is routed and forwarded (`/llm/v1/messages` goes to the upstream's `/v1/messages`); a request outside
   * it answers 404. Default: none, the proxy answers every path.
   */
  basePath?: string;
  /** Where compacted prefixes and compactions are kept; none keeps them in memory only. */
  store?: CompactionStore;
  /**
   * Whether each compaction archives what it removes or shortens in `store`, under the handles its
   * placeholders name, so `compaction recall` and `compaction mcp` find it (session `proxy:<conversation>`).
   * False records nothing of a compaction in the store (only the compacted prefixes). Needs `store`.
   * Default true.
   */
  archive?: boolean;
  /** Largest request body in bytes. Default 32 MiB. */
  maxBodyBytes?: number;
  /** Compactions running at once. Default 8. */
  maxConcurrent?: number;
  /** Compactions waiting for a slot; beyond, 503 with `Retry-After`. Default 64. */
  maxQueue?: number;
  /**
   * Worker threads that run the strategy of a large conversation's compaction off the event loop, so it does
   * not hold up the other requests; 0 compacts on the event loop. Default: one less than the cores
   * (`os.availableParallelism()`), at least 1 and at most `maxConcurrent`.
   */
  compactionThreads?: number;
  /**
   * Compaction off the critical path: from `prepareAt` on, a conversation's request goes upstream at once
   * while its history is compacted in the background, and the request that crosses the trigger uses that
   * result with the turns since (the Compactor's session is the conversation, `proxy:<key>`). One job per
   * conversation, `maximumConcurrent` (default 4) across the proxy. Off when absent; `prepareAt` must lie
   * between the target and the trigger.
   */
  background?: BackgroundSettings;
  /** Smallest conversation, in tokens, whose strategy runs on a thread. Default 64,000. */
  threadedHistoryTokens?: number;
  /** Where the summarizer's API key is read (the operator's environment, never a request). */
  environment?: NodeJS.ProcessEnv;
  /** Where the line about each compaction goes. Default standard error. */
  log?: (line: string) => void;
  /**
   * What hears each compaction and upstream answer: the metrics and log of {@link createProxyServer}'s server,
   * which writes each compaction's line in place of `log`.
   */
  observer?: ProxyObserver;
  /**
   * The metrics (`GET /metrics`, on unless `metrics: false`), log format and request tracing of the server of
   * {@link createProxyServer}, whose every answer carries an `x-request-id`.
   */
  observability?: ObservabilitySettings;
  /** How long the upstream may stay silent (before its answer, and within a stream), in ms. Default 10 minutes. */
  upstreamTimeoutMs?: number;
  /** Conversations past this age or beyond this size are deleted from the store and memory (needs `store`). */
  retention?: RetentionSettings;
}

/** What `GET /compaction/status` answers. */
export interface ProxyStatus {
  uptimeSeconds: number;
  /** Requests forwarded upstream (a retry after an overflow counts once). */
  requests: number;
  /** Requests whose conversation was compacted on the way, overflow retries included. */
  compactions: number;
  /** Requests retried after the upstream answered a context overflow (each retry of one request counts). */
  overflowRetries: number;
  /** Requests whose body was in a content encoding the proxy cannot read, forwarded uncompacted. */
  unreadBodies: number;
  /** Conversations whose compacted prefix the proxy remembers in memory. */
  conversations: number;
  /** The limits upstream models stated in their overflow errors: every later request to them is held to it. */
  learnedLimits: LearnedLimit[];
  /** How many requests each compacted prefix served before the next compaction replaced it. */
  prefixRequests: PrefixUseSummary;
  /** What the compactions archived, per conversation and in all, since the proxy started. */
  archive: ProxyArchiveStatus;
  /**
   * Writes the store refused (an archived compaction, a compacted prefix): each was reported on the log, and
   * its request went on, compacted.
   */
  storeErrors: number;
  upstreams: Record<string, string>;
}

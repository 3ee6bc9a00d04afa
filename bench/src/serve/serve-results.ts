/** The saved results of the serve bench: `bench/results/serve.json`. */
import { resultsFile } from '../results-file.js';

/** `/v1/health` (the proxy: `/compaction/status`) latencies of one server under one load, in milliseconds. */
export interface HealthUnderLoad {
  /**
   * `none`: `compaction serve` without load (the machine's own share of the latency); `compact`: clients
   * posting a large `/v1/compact`; `sessions`: clients growing large sessions that compact; `proxy`: clients
   * posting large conversations through `compaction proxy`, each compacted on its way.
   */
  load: 'none' | 'compact' | 'sessions' | 'proxy';
  /** `inline`: every compaction on the event loop (`compactionThreads: 0`); `threads`: the default pool. */
  mode: 'idle' | 'inline' | 'threads';
  /** Compaction threads of the server (0 inline). */
  threads: number;
  /** Health checks answered during the load. */
  checks: number;
  medianMilliseconds: number;
  p99Milliseconds: number;
  maxMilliseconds: number;
  /** Answers to the load's requests, by HTTP status. */
  compactions: Record<string, number>;
  /** Compactions the server ran, when they are not one per request (sessions, the proxy). */
  compacted?: number;
  /**
   * The server's own event loop during the load: the share of the wall time it was busy, and how late its
   * timers ran (p99 and max, in milliseconds). Less swayed than the latencies by what else loads the machine.
   */
  eventLoop?: { utilization: number; delayP99Milliseconds: number; delayMaxMilliseconds: number };
}

export interface ServeResults {
  node: string;
  cores: number;
  /** One-minute load average at the start: the latencies move with it. */
  loadAverage: number;
  date: string;
  /** Clients of each load. */
  clients: number;
  /** Size of each client's `/v1/compact` body in bytes. */
  bodyBytes: number;
  /** The session load: the sessions' context window, and the size of each appended tool round. */
  sessions?: { contextWindow: number; roundBytes: number; startBytes: number };
  /** The proxy load: the proxy's context window, and the size of each request. */
  proxy?: { contextWindow: number; bodyBytes: number };
  /** How long each server was loaded. */
  seconds: number;
  /** Pause between health checks (one at a time), in milliseconds. */
  checkIntervalMilliseconds: number;
  runs: HealthUnderLoad[];
}

export const serveResultsFile = resultsFile<ServeResults>('serve.json');

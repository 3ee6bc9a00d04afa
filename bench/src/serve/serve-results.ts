/** The saved results of the serve bench: `bench/results/serve.json`. */
import { resultsFile } from '../results-file.js';

/** `/v1/health` latencies of one server under the load, in milliseconds. */
export interface HealthUnderLoad {
  /**
   * `idle`: the default server without load (the machine's own share of the latency); `inline`: every
   * compaction on the event loop (`compactionThreads: 0`); `threads`: the default pool.
   */
  mode: 'idle' | 'inline' | 'threads';
  /** Compaction threads of the server (0 inline). */
  threads: number;
  /** Health checks answered during the load. */
  checks: number;
  medianMilliseconds: number;
  p99Milliseconds: number;
  maxMilliseconds: number;
  /** Answers to the load's compactions, by HTTP status. */
  compactions: Record<string, number>;
}

export interface ServeResults {
  node: string;
  cores: number;
  /** One-minute load average at the start: the latencies move with it. */
  loadAverage: number;
  date: string;
  /** Clients posting the large body in a loop. */
  clients: number;
  /** Size of each client's `/v1/compact` body in bytes. */
  bodyBytes: number;
  /** How long each server was loaded. */
  seconds: number;
  /** Pause between health checks (one at a time), in milliseconds. */
  checkIntervalMilliseconds: number;
  runs: HealthUnderLoad[];
}

export const serveResultsFile = resultsFile<ServeResults>('serve.json');

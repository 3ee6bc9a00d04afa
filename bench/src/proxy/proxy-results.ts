/** The saved results of the proxy latency benchmark: `bench/results/proxy.json`. */
import { resultsFile } from '../results-file.js';

/** Milliseconds from sending a request to reading its whole answer, at two percentiles. */
export interface Latency {
  p50: number;
  p99: number;
}

/** One request size, sent the same number of times by each route. */
export interface ProxyCase {
  label: string;
  /** Bytes of the first request; each later one adds a short exchange, as an agent's next request does. */
  bytes: number;
  requests: number;
  direct: Latency;
  passThrough: Latency;
  proxy: Latency;
}

export interface ProxyResults {
  node: string;
  cores: number;
  /** One-minute load average at the start: the times move with it. */
  loadAverage: number;
  date: string;
  cases: ProxyCase[];
}

export const proxyResultsFile = resultsFile<ProxyResults>('proxy.json');

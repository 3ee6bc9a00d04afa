/** The saved results of the telemetry overhead benchmark: `bench/results/telemetry.json`. */
import { resultsFile } from '../results-file.js';

/** One workload, timed without observers and with `compactionTelemetry()` and no provider registered. */
export interface TelemetryWorkload {
  name: string;
  /** Calls timed together in one sample. */
  calls: number;
  /** Median milliseconds of one call without observers. */
  plainMilliseconds: number;
  /** Median milliseconds of one call with the telemetry observer. */
  telemetryMilliseconds: number;
  /**
   * Median of each round's ratio, with telemetry over without, the two taken one after the other: steadier
   * than the ratio of the medians when the machine's load moves during the run.
   */
  ratio: number;
}

export interface TelemetryResults {
  node: string;
  cores: number;
  /** One-minute load average at the start: the medians move with it. */
  loadAverage: number;
  date: string;
  /** The version of `@opentelemetry/api` loaded. */
  api: string;
  /** Samples per median, each workload's two variants taken in turns. */
  samples: number;
  workloads: TelemetryWorkload[];
}

export const telemetryResultsFile = resultsFile<TelemetryResults>('telemetry.json');

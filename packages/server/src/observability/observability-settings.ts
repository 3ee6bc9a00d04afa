import type { RequestTracing } from './request-tracing.js';
import type { LogFormat } from './service-log.js';

/** What a service tells of itself: metrics, logs and traces. */
export interface ObservabilitySettings {
  /** Whether `GET /metrics` answers the Prometheus metrics (404 when off). Default true. */
  metrics?: boolean;
  /** `text` (default): the lines the service always wrote; `json`: one JSON object per request and compaction. */
  logFormat?: LogFormat;
  /** Where log lines go, each without its newline. Default standard error. */
  log?: (line: string) => void;
  /** A span per request, from `startTracing`; none traces nothing. */
  tracing?: RequestTracing;
}

import type { BackgroundEvent } from '@compaction/core';
import { backgroundMetrics } from './background-metrics.js';
import { MetricRegistry } from './metric-registry.js';

/** What a compaction came to, as the metrics and logs count it. */
export interface ObservedCompaction {
  /** The strategy's name (`pipeline` for a pipeline): one of the operator's or the request policy's. */
  strategy: string;
  trigger: string;
  /** `fallback`: the fallback strategy produced the result; `failed`: nothing did. */
  outcome: 'compacted' | 'fallback' | 'failed';
  tokensBefore?: number;
  tokensAfter?: number;
  /** The session it belongs to (a serve session id, which the server makes). */
  sessionId?: string;
}

/** One answered request, as the metrics count it. */
export interface FinishedRequest {
  method: string;
  /** The route template (`/v1/sessions/{id}/compact`), never the path itself. */
  route: string;
  /** The status sent, or `aborted` when the client left before the answer began. */
  status: string;
  seconds: number;
}

/** Figures read when the metrics are scraped. */
export interface MetricSources {
  /** Live sessions (serve) or remembered conversations (the proxy). */
  sessions(): number;
  /** Compactions admitted and not finished: running or waiting for a slot. */
  queueLength?(): number;
  /** The proxy's overflow retries so far. */
  overflowRetries?(): number;
  /** Store failures counted by the service itself (the proxy's); none counts them with {@link ServiceMetrics.storeError}. */
  storeErrors?(): number;
}

/** The metrics of `compaction serve` or `compaction proxy`, and how each is recorded. */
export interface ServiceMetrics {
  readonly registry: MetricRegistry;
  requestFinished(request: FinishedRequest): void;
  compaction(compaction: ObservedCompaction): void;
  storeError(): void;
  /** A background compaction started, used or dropped. */
  background(event: BackgroundEvent): void;
  /** An upstream answer's status, or `error` when the upstream could not be reached (the proxy). */
  upstreamAnswered(status: number | 'error'): void;
}

const secondsBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const tokenBuckets = [100, 1_000, 4_000, 16_000, 64_000, 256_000, 1_000_000];

/** The metrics of one service; `kind` adds the proxy's upstream figures. */
export function createServiceMetrics(kind: 'serve' | 'proxy', sources: MetricSources): ServiceMetrics {
  const registry = new MetricRegistry();
  const requests = registry.counter(
    'compaction_http_requests_total',
    'HTTP requests answered, by method, route template and status.',
  );
  const latency = registry.histogram(
    'compaction_http_request_duration_seconds',
    'Time from a request to the end of its answer, in seconds, by method and route template.',
    secondsBuckets,
  );
  const compactions = registry.counter(
    'compaction_compactions_total',
    'Compactions, by strategy, trigger and outcome (compacted, fallback, failed).',
  );
  const tokensSaved = registry.histogram(
    'compaction_tokens_saved',
    'Tokens a compaction removed (before minus after), by strategy.',
    tokenBuckets,
  );
  const storeErrorsHelp = 'Operations of the store that failed.';
  const storeErrors =
    sources.storeErrors === undefined
      ? registry.counter('compaction_store_errors_total', storeErrorsHelp)
      : undefined;
  storeErrors?.increment({}, 0);
  if (sources.storeErrors !== undefined) {
    registry.readCounter('compaction_store_errors_total', storeErrorsHelp, sources.storeErrors);
  }
  registry.gauge(
    'compaction_sessions',
    kind === 'serve' ? 'Live sessions.' : 'Conversations whose compacted prefix the proxy remembers.',
    sources.sessions,
  );
  const { queueLength, overflowRetries } = sources;
  if (queueLength !== undefined) {
    registry.gauge(
      'compaction_queue_length',
      'Compactions admitted and not finished: running or waiting for a slot.',
      queueLength,
    );
  }
  const upstream =
    kind === 'proxy'
      ? registry.counter(
          'compaction_proxy_upstream_requests_total',
          'Requests sent upstream (overflow retries included), by the status answered or error.',
        )
      : undefined;
  if (overflowRetries !== undefined) {
    registry.readCounter(
      'compaction_proxy_overflow_retries_total',
      'Requests retried after the upstream answered a context overflow.',
      overflowRetries,
    );
  }
  const background = backgroundMetrics(registry);
  return {
    registry,
    background,
    requestFinished: ({ method, route, status, seconds }) => {
      requests.increment({ method, route, status });
      latency.observe(seconds, { method, route });
    },
    compaction: ({ strategy, trigger, outcome, tokensBefore, tokensAfter }) => {
      compactions.increment({ strategy, trigger, outcome });
      if (outcome !== 'failed' && tokensBefore !== undefined && tokensAfter !== undefined) {
        tokensSaved.observe(Math.max(0, tokensBefore - tokensAfter), { strategy });
      }
    },
    storeError: () => storeErrors?.increment(),
    upstreamAnswered: (status) => upstream?.increment({ status: String(status) }),
  };
}

import type { IncomingMessage } from 'node:http';
import type { CompactorObserver } from '@compaction/core';

/** A request's span, begun when the request arrives. */
export interface TracedRequest {
  /** Runs `work` with the request's span active, so the spans it starts (the Compactor's) are its children. */
  run<Result>(work: () => Result): Result;
  /** Ends the span with the route template and the status sent (`aborted` when none was). */
  end(status: string): void;
}

/** Traces of a service's requests: a span each, continuing the caller's `traceparent`. */
export interface RequestTracing {
  startRequest(
    request: IncomingMessage,
    details: { method: string; route: string; requestId: string },
  ): TracedRequest;
  /**
   * The observers that trace a Compactor's work (`@compaction/opentelemetry`): given to a Compactor, its
   * compactions, strategies, stages and summarizer calls are spans inside the request's span.
   */
  readonly compactorObservers: readonly CompactorObserver[];
  /** Sends the spans finished so far, and the metrics as they stand when they are exported. */
  flush(): Promise<void>;
  /** Sends what is left (spans and metrics) and stops exporting; rejects when what is left cannot be sent (the collector is down). */
  shutdown(): Promise<void>;
}

/** Settings of `startTracing`. */
export interface TracingSettings {
  /** The OTLP/HTTP traces endpoint, such as `http://localhost:4318/v1/traces`. */
  url: string;
  /** The `service.name` of the spans and metrics. */
  serviceName: string;
  /**
   * The OTLP/HTTP metrics endpoint, such as `http://localhost:4318/v1/metrics`: the Compactors' metrics
   * (`compaction.compactions`...) are sent there. Without it, they are not exported.
   */
  metricsUrl?: string;
  /** How often the metrics are sent, in ms. Default 60,000 (the OpenTelemetry default). */
  metricIntervalMs?: number;
}

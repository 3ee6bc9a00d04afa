import type { CompactionEvent, CompactorEvents, CompactorObserver } from '@compaction/core';
import type { ObservabilitySettings } from './observability-settings.js';
import type { RequestTracing } from './request-tracing.js';
import { createServiceLog, type ServiceLog } from './service-log.js';
import {
  createServiceMetrics,
  type MetricSources,
  type ObservedCompaction,
  type ServiceMetrics,
} from './service-metrics.js';

/** What hears a service's compactions and store failures: its metrics and its log. */
export interface CompactionObserver {
  /** Counts and logs a compaction; `textLine` is the service's own line about it, for the text log. */
  compaction(compaction: ObservedCompaction, textLine?: string): void;
  storeError(): void;
  /** A background compaction started, used or dropped (counted by the metrics). */
  background?(event: CompactorEvents['background']): void;
  /** What traces a Compactor's work, when the service is traced: given to the Compactors it creates. */
  readonly compactorObservers?: readonly CompactorObserver[];
}

/** What hears the proxy's compactions and upstream answers. */
export interface ProxyObserver {
  /** A compaction, and the proxy's own line about it (what the text log writes). */
  compacted(event: CompactionEvent, line: string): void;
  /** An upstream answer's status, or `error` when the upstream could not be reached. */
  upstreamAnswered(status: number | 'error'): void;
  /** A compaction that failed (every strategy, or an abort); the request goes on uncompacted. */
  compactionFailed?(failure: CompactorEvents['error'], strategy: string): void;
  /** A background compaction started, used or dropped (counted by the metrics). */
  background?(event: CompactorEvents['background']): void;
  /** What traces the proxy's Compactor, when the server is traced: its spans children of the request's. */
  readonly compactorObservers?: readonly CompactorObserver[];
}

/** The metrics, log and tracing of one service, from its settings. */
export interface ServiceObservability extends CompactionObserver, ProxyObserver {
  metrics?: ServiceMetrics;
  log: ServiceLog;
  tracing?: RequestTracing;
}

/** Builds what a service of `kind` records, reading the figures of `sources` at each scrape. */
export function createServiceObservability(
  kind: 'serve' | 'proxy',
  settings: ObservabilitySettings,
  sources: MetricSources,
): ServiceObservability {
  const metrics = settings.metrics === false ? undefined : createServiceMetrics(kind, sources);
  const log = createServiceLog(
    settings.logFormat ?? 'text',
    settings.log ?? ((line) => process.stderr.write(`${line}\n`)),
  );
  return {
    ...(metrics === undefined ? {} : { metrics }),
    log,
    ...(settings.tracing === undefined
      ? {}
      : { tracing: settings.tracing, compactorObservers: settings.tracing.compactorObservers }),
    compaction: (compaction, textLine) => {
      metrics?.compaction(compaction);
      log.compaction(compaction, textLine);
    },
    storeError: () => metrics?.storeError(),
    background: (event) => metrics?.background(event),
    // The proxy's conversation key is left out: a named conversation's name comes from a request header.
    compacted: (event, line) => {
      const compaction = observedCompactionOf(event);
      metrics?.compaction(compaction);
      log.compaction(compaction, line);
    },
    // The proxy logs the failure's text line itself: only the JSON log gets a compaction object for it.
    compactionFailed: (failure, strategy) => {
      const compaction = failedCompactionOf(failure, strategy);
      metrics?.compaction(compaction);
      log.compaction(compaction);
    },
    upstreamAnswered: (status) => metrics?.upstreamAnswered(status),
  };
}

/** A finished compaction as the metrics and logs count it. */
export function observedCompactionOf(event: CompactionEvent, sessionId?: string): ObservedCompaction {
  return {
    strategy: event.strategy,
    trigger: event.trigger,
    outcome: event.usedFallback ? 'fallback' : 'compacted',
    tokensBefore: event.tokensBefore,
    tokensAfter: event.tokensAfter,
    ...(sessionId === undefined ? {} : { sessionId }),
  };
}

/** A compaction that failed (every strategy, or an abort), as the metrics and logs count it. */
export function failedCompactionOf(
  failure: CompactorEvents['error'],
  strategy: string,
  sessionId?: string,
): ObservedCompaction {
  return {
    strategy,
    trigger: failure.trigger,
    outcome: 'failed',
    ...(sessionId === undefined ? {} : { sessionId }),
  };
}

/** The strategy label of settings naming `names`: the one name, or `pipeline` for several. */
export function strategyLabelOf(names: readonly string[]): string {
  return names.length === 1 ? names[0]! : 'pipeline';
}

/** Reports each compaction of `compactor` (and each that failed) to `observer`. */
export function observeCompactor(
  compactor: {
    on(name: 'end', listener: (event: CompactionEvent) => void): unknown;
    on(name: 'error', listener: (failure: CompactorEvents['error']) => void): unknown;
    on(name: 'background', listener: (event: CompactorEvents['background']) => void): unknown;
  },
  observer: CompactionObserver,
  strategy: string,
  sessionId?: string,
): void {
  compactor.on('end', (event) => observer.compaction(observedCompactionOf(event, sessionId)));
  // A store failure is counted by the store's own wrapper; a hook's or listener's changes no compaction.
  compactor.on('error', (failure) => {
    if (failure.source === 'compaction')
      observer.compaction(failedCompactionOf(failure, strategy, sessionId));
  });
  const { background } = observer;
  if (background !== undefined) compactor.on('background', (event) => background.call(observer, event));
}

import type { CompactionResult } from '@compaction/core';
import type { Attributes, Counter, Histogram, Meter, MeterProvider } from '@opentelemetry/api';
import { attributeNames, instrumentationScope, metricNames } from './telemetry-names.js';

interface Instruments {
  /** Whether the meter is the API's no-op one (no SDK registered): then nothing is recorded. */
  off: boolean;
  compactions: Counter;
  tokensSaved: Histogram;
  duration: Histogram;
  fallbacks: Counter;
  overflowRetries: Counter;
}

/** How one compaction ended, as the metrics record it. */
export interface CompactionMeasure {
  strategy: string;
  trigger: string;
  seconds: number;
  result?: CompactionResult;
  /** Set when the compaction threw. */
  failed: boolean;
}

/**
 * Records the compaction metrics on the meter provider `provider()` returns, read at each record: the global
 * one may be registered after the telemetry was created, and a meter taken from the no-op provider stays a
 * no-op for good. Instruments are made once per provider. `noopMeter` is the API's no-op meter, to tell it.
 */
export function compactionMetrics(
  provider: () => MeterProvider,
  version: string | undefined,
  noopMeter: Meter,
) {
  let current: { provider: MeterProvider; instruments: Instruments } | undefined;
  const instruments = (): Instruments => {
    const now = provider();
    if (current?.provider !== now) current = { provider: now, instruments: create(now, version, noopMeter) };
    return current.instruments;
  };
  return {
    /** Whether nothing would be recorded: no meter provider but the API's no-op one, or one that fails. */
    off(): boolean {
      try {
        return instruments().off;
      } catch {
        return true;
      }
    },
    compaction(measure: CompactionMeasure): void {
      const { result } = measure;
      const outcome = measure.failed ? 'failed' : result?.compacted ? 'compacted' : 'skipped';
      const event = result?.event;
      const strategy = event?.strategy ?? measure.strategy;
      const attributes: Attributes = {
        [attributeNames.strategy]: strategy,
        [attributeNames.trigger]: measure.trigger,
      };
      const all = instruments();
      all.compactions.add(1, { ...attributes, [attributeNames.outcome]: outcome });
      all.duration.record(measure.seconds, { ...attributes, [attributeNames.outcome]: outcome });
      if (event === undefined) return;
      all.tokensSaved.record(Math.max(0, event.tokensBefore - event.tokensAfter), attributes);
      if (event.trigger === 'overflow') all.overflowRetries.add(1, attributes);
    },
    fallback(strategy: string, trigger: string, failed: boolean): void {
      const attributes = {
        [attributeNames.strategy]: strategy,
        [attributeNames.trigger]: trigger,
        [attributeNames.outcome]: failed ? 'failed' : 'compacted',
      };
      instruments().fallbacks.add(1, attributes);
    },
  };
}

function create(provider: MeterProvider, version: string | undefined, noopMeter: Meter): Instruments {
  const meter = provider.getMeter(instrumentationScope, version);
  return {
    off: meter.constructor === noopMeter.constructor,
    compactions: meter.createCounter(metricNames.compactions, {
      description: 'Compactions run, by strategy, trigger and outcome (compacted, skipped, failed).',
      unit: '{compaction}',
    }),
    tokensSaved: meter.createHistogram(metricNames.tokensSaved, {
      description: 'Tokens a compaction removed from the history: tokens before minus tokens after.',
      unit: '{token}',
      advice: { explicitBucketBoundaries: tokenBuckets },
    }),
    duration: meter.createHistogram(metricNames.duration, {
      description: 'How long a compaction took, hooks and store included.',
      unit: 's',
      advice: { explicitBucketBoundaries: secondBuckets },
    }),
    fallbacks: meter.createCounter(metricNames.fallbacks, {
      description: 'Runs of the fallback strategy after the strategy failed, by outcome.',
      unit: '{compaction}',
    }),
    overflowRetries: meter.createCounter(metricNames.overflowRetries, {
      description: 'Compactions after a context-overflow refusal that gave a history to send again.',
      unit: '{retry}',
    }),
  };
}

/** From a quick truncation to a summarizer's minute-long call. */
const secondBuckets = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** From a few tool results cut to a million-token window emptied. */
const tokenBuckets = [
  100, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000,
];

import type { BackgroundEvent } from '@compaction/core';
import type { MetricRegistry } from './metric-registry.js';

const savedSecondsBuckets = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * The counters of background compaction (the `background` setting): jobs started, results used, results
 * dropped by reason, and the time the compaction at the trigger did not take. Registered whether or not the
 * service compacts in the background, so a dashboard finds zeros rather than nothing.
 */
export function backgroundMetrics(registry: MetricRegistry): (event: BackgroundEvent) => void {
  const started = registry.counter(
    'compaction_background_started_total',
    'Compactions started in the background, ahead of the trigger.',
  );
  const used = registry.counter(
    'compaction_background_used_total',
    'Background compactions whose result was used at the trigger.',
  );
  const discarded = registry.counter(
    'compaction_background_discarded_total',
    'Background compactions dropped, by reason (history-changed, failed, skipped, session-closed, superseded).',
  );
  const saved = registry.histogram(
    'compaction_background_saved_seconds',
    'Time the compaction at the trigger did not take because a background result was used, in seconds.',
    savedSecondsBuckets,
  );
  started.increment({}, 0);
  used.increment({}, 0);
  return (event) => {
    if (event.status === 'started') started.increment();
    else if (event.status === 'used') {
      used.increment();
      saved.observe(event.savedMs / 1000);
    } else discarded.increment({ reason: event.reason });
  };
}

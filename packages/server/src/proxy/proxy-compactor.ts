import { type Compactor, createFastEstimator, createTokenCounter, type Provider } from '@compaction/core';
import { checkBackground } from '../config/background-flags.js';
import { strategyLabelOf } from '../observability/service-observability.js';
import { contextWindowOf } from '../run-compaction.js';
import { createThreadedCompactor } from '../workers/threaded-compactor.js';
import { defaultThreadedHistoryTokens, strategyThreads } from '../workers/threaded-strategy.js';
import type { ProxyArchive } from './proxy-archive.js';
import type { CompactionProxySettings } from './proxy-settings.js';

/**
 * The Compactor every conversation of a proxy is compacted with: the operator's strategies, on the compaction
 * threads when there are some, archiving into `archive` when there is one. Traced by the observer's Compactor
 * observers (its spans children of the request's), and each compaction that fails reported to the observer.
 */
export async function createProxyCompactor(
  options: CompactionProxySettings,
  provider: Provider | undefined,
  archive: ProxyArchive | undefined,
  pool: Parameters<typeof strategyThreads>[0] | undefined,
  log: (line: string) => void,
): Promise<Compactor> {
  const { settings, registry, observer, background } = options;
  const budget = { ...settings.budget, contextWindow: contextWindowOf(settings, provider) };
  checkBackground(background, budget);
  const compactor = await createThreadedCompactor(
    settings.config,
    registry,
    provider,
    {
      budget,
      // One Compactor for every conversation: its `maximumConcurrent` is the proxy's cap.
      ...(background === undefined ? {} : { background }),
      // The fast estimator, never anchored on a provider's usage: what the compaction threads count with.
      counter: createTokenCounter(createFastEstimator()),
      // Archiving, every compaction is recorded with what it removed, under the handles its placeholders name;
      // not archiving, nothing of it is kept.
      ...(archive === undefined ? {} : { store: archive.store, archive: true }),
      ...(observer?.compactorObservers?.length ? { observers: observer.compactorObservers } : {}),
    },
    pool === undefined
      ? undefined
      : strategyThreads(pool, options.threadedHistoryTokens ?? defaultThreadedHistoryTokens, (error) =>
          log(`compaction proxy: compacting on the event loop, not on threads: ${error.message}`),
        ),
  );
  const heard = observer?.background;
  if (heard !== undefined) compactor.on('background', (event) => heard.call(observer, event));
  const failed = observer?.compactionFailed;
  if (failed !== undefined) {
    const strategy = strategyLabelOf(settings.strategyNames);
    // A store's or a listener's failure changes no compaction: only the compactions that failed are counted.
    compactor.on('error', (failure) => {
      if (failure.source === 'compaction') failed.call(observer, failure, strategy);
    });
  }
  return compactor;
}

/**
 * Follows the conversations whose background compaction is running or ready, and returns what stops them all:
 * when the proxy closes, no summary is left to run for requests that will not come.
 */
export function backgroundStopper(compactor: Compactor): () => void {
  const conversations = new Set<string>();
  compactor.on('background', (event) => {
    if (event.status === 'started') conversations.add(event.sessionId);
    else conversations.delete(event.sessionId);
  });
  return () => {
    for (const sessionId of [...conversations]) compactor.forget(sessionId);
  };
}

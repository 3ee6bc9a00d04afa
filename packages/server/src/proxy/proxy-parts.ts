import { backgroundStartTokens } from '../config/background-flags.js';
import { CompactionLimiter } from '../serve/compaction-limiter.js';
import { ProviderPool } from '../serve/provider-pool.js';
import { createRequestPolicy } from '../serve/request-policy.js';
import type { RetentionSweep } from '../serve/retention-sweep.js';
import { serverDefaults } from '../serve/server-defaults.js';
import { createCompactionPool, defaultCompactionThreads } from '../workers/compaction-pool.js';
import { compactionLine } from './compaction-line.js';
import { ForcedCompactions } from './forced-compactions.js';
import { PrefixMemory } from './prefix-memory.js';
import { PrefixUse } from './prefix-use.js';
import { ProxyArchive } from './proxy-archive.js';
import { backgroundStopper, createProxyCompactor } from './proxy-compactor.js';
import {
  type CompactionProxySettings,
  defaultProxyMaxBodyBytes,
  type ProxyStatus,
} from './proxy-settings.js';
import { type ProxyCounts, proxyStatus } from './proxy-status.js';
import { RecentBodies } from './recent-bodies.js';
import type { RequestCompactionContext } from './request-compaction.js';
import { UpstreamLimits } from './upstream-limits.js';

/** What a proxy's requests work with: its settings resolved, its compactor, memory and counts. */
export interface ProxyParts {
  options: CompactionProxySettings;
  maxBodyBytes: number;
  log: (line: string) => void;
  counts: ProxyCounts;
  context: RequestCompactionContext;
  /** Conversations marked for a forced compaction of their next request. */
  forced: ForcedCompactions;
  status(): ProxyStatus;
  /** Stops the background compactions, the retention sweep and the compaction threads. */
  close(): Promise<void>;
}

/** Builds what a proxy's requests share, from its settings. */
export async function createProxyParts(options: CompactionProxySettings): Promise<ProxyParts> {
  const { settings, registry, store } = options;
  const maxBodyBytes = options.maxBodyBytes ?? defaultProxyMaxBodyBytes;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  // The summarizer is the operator's provider, built from the operator's settings and environment only.
  const provider = await new ProviderPool(settings.provider, options.environment).get();
  const maxConcurrent = options.maxConcurrent ?? serverDefaults.maxConcurrent;
  const counts: ProxyCounts = {
    requests: 0,
    compactions: 0,
    overflowRetries: 0,
    unreadBodies: 0,
    storeErrors: 0,
  };
  // A write the store refuses is reported and counted; the request it was for goes on, compacted.
  const storeFailed = (problem: string, error: unknown) => {
    counts.storeErrors++;
    log(`compaction proxy: ${problem}: ${(error as Error)?.message ?? error}`);
  };
  const archive =
    store === undefined || options.archive === false ? undefined : new ProxyArchive(store, storeFailed);
  // Started on the first large compaction. Each compaction passes its conversation's state to the thread
  // (the history, the round), so any thread can run any conversation's; the remembered prefixes, the store
  // and the counts stay here.
  const pool = createCompactionPool(options.compactionThreads ?? defaultCompactionThreads(maxConcurrent), {
    settings,
    policy: createRequestPolicy(settings.config, settings.provider),
    strategyNames: registry.names(),
    ...(options.environment === undefined ? {} : { environment: options.environment }),
    maxBodyBytes,
    idleMs: serverDefaults.sessionIdleMs,
  });
  const compactor = await createProxyCompactor(options, provider, archive, pool, log);
  const stopBackground = backgroundStopper(compactor);
  const memory = new PrefixMemory(store, undefined, {
    failed: storeFailed,
    forgotten: (sessionId) => {
      archive?.forget(sessionId);
      // A background compaction of a conversation retention deleted is stopped with it.
      compactor.forget(sessionId);
    },
  });
  const retention = options.retention === undefined ? undefined : memory.keepWithin(options.retention, log);
  const limiter = new CompactionLimiter(maxConcurrent, options.maxQueue ?? serverDefaults.maxQueue);
  const limits = new UpstreamLimits();
  const forced = new ForcedCompactions();
  const prefixUse = new PrefixUse();
  const context: RequestCompactionContext = {
    compactor,
    memory,
    limits,
    prefixUse,
    flights: new Map(),
    forced,
    ...(options.background === undefined
      ? {}
      : { backgroundAt: backgroundStartTokens(options.background, compactor.budget.limit) }),
    // A trigger policy decides from more than the count: then every request is read whole.
    ...(settings.config.triggerPolicy === undefined
      ? { recentBodies: new RecentBodies(compactor.counter.estimator) }
      : {}),
    compacted(key, event, served) {
      counts.compactions++;
      const line = compactionLine(key, event, served, archive?.takeOutcome(event.id));
      options.observer === undefined ? log(line) : options.observer.compacted(event, line);
    },
    learned(limit) {
      log(
        `compaction proxy: the ${limit.upstream} upstream refused a request to ${limit.model || 'its model'} as too long: ` +
          `requests to it are held to ${limit.inputTokens} input tokens (its count; ours × ${limit.ratio.toFixed(2)})`,
      );
    },
    async inSlot<T>(operation: () => Promise<T>): Promise<T> {
      const ticket = limiter.admit();
      try {
        return await ticket.run(operation);
      } finally {
        ticket.release();
      }
    },
  };
  const startedAt = Date.now();
  return {
    options,
    maxBodyBytes,
    log,
    counts,
    context,
    forced,
    status: () =>
      proxyStatus({ startedAt, counts, memory, limits, prefixUse, archive, upstreams: options.upstreams }),
    close: () => {
      stopBackground();
      return closeParts(retention, pool, log);
    },
  };
}

/** Stops the sweep and the threads; a thread that will not stop is logged, not thrown. */
async function closeParts(
  retention: RetentionSweep | undefined,
  pool: { close(): Promise<void> } | undefined,
  log: (line: string) => void,
): Promise<void> {
  retention?.stop();
  await pool
    ?.close()
    .catch((error: unknown) => log(`compaction proxy: could not stop the compaction threads: ${error}`));
}

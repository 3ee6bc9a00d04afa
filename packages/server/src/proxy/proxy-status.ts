import type { PrefixMemory } from './prefix-memory.js';
import type { PrefixUse } from './prefix-use.js';
import type { ProxyArchive } from './proxy-archive.js';
import type { ProxyStatus } from './proxy-settings.js';
import type { UpstreamLimits } from './upstream-limits.js';
import type { Upstreams } from './upstreams.js';

/** The proxy's running counts, as `GET /compaction/status` reports them. */
export interface ProxyCounts {
  requests: number;
  compactions: number;
  overflowRetries: number;
  unreadBodies: number;
  storeErrors: number;
}

/** What the status endpoint answers, from the parts that keep each figure. */
export function proxyStatus(parts: {
  startedAt: number;
  counts: ProxyCounts;
  memory: PrefixMemory;
  limits: UpstreamLimits;
  prefixUse: PrefixUse;
  upstreams: Upstreams;
  /** Undefined when the proxy does not archive. */
  archive: ProxyArchive | undefined;
}): ProxyStatus {
  return {
    uptimeSeconds: Math.round((Date.now() - parts.startedAt) / 1000),
    ...parts.counts,
    conversations: parts.memory.size,
    learnedLimits: parts.limits.list(),
    prefixRequests: parts.prefixUse.summary(),
    archive: parts.archive?.status() ?? { enabled: false, items: 0, bytes: 0, conversations: [] },
    upstreams: Object.fromEntries(Object.entries(parts.upstreams).map(([name, url]) => [name, url.href])),
  };
}

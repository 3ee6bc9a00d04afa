import type { AddressInfo } from 'node:net';
import type { BackgroundSettings, CompactionStore } from '@compaction/core';
import { temporaryDirectory } from '../../__fixtures__/temporary-directory.js';
import { createInstalledStrategyRegistry, proxyStrategyDefaults } from '../../config/installed-strategies.js';
import { type CompactionFlags, resolveSettings } from '../../config/resolve-settings.js';
import { createProxyServer, type ProxyServer } from '../proxy-server.js';
import type { CompactionProxySettings } from '../proxy-settings.js';
import { parseUpstreams } from '../upstreams.js';

/** A proxy on a free loopback port, with the lines it logged. */
export interface RunningProxy {
  url: string;
  server: ProxyServer;
  lines: string[];
  close(): Promise<void>;
}

/**
 * Starts the proxy in this process, as `compaction proxy` does, with the given flags (`--context-window` and
 * so on), in an empty folder so no config file of the repository is picked up.
 */
export async function startProxy(
  upstream: string[],
  flags: CompactionFlags = {},
  options: {
    environment?: NodeJS.ProcessEnv;
    store?: CompactionStore;
    /** Whether compactions archive in `store` (the proxy's default: true). */
    archive?: boolean;
    /** Background compaction (`--background-at`); none compacts in line only. */
    background?: BackgroundSettings;
    limits?: Pick<
      CompactionProxySettings,
      'maxConcurrent' | 'maxQueue' | 'upstreamTimeoutMs' | 'compactionThreads' | 'threadedHistoryTokens'
    >;
  } = {},
): Promise<RunningProxy> {
  const registry = await createInstalledStrategyRegistry();
  const folder = temporaryDirectory();
  const settings = resolveSettings(registry, flags, folder, proxyStrategyDefaults(registry));
  const lines: string[] = [];
  const server = await createProxyServer({
    settings,
    registry,
    upstreams: parseUpstreams(upstream),
    log: (line) => lines.push(line),
    environment: options.environment ?? {},
    ...(options.store === undefined ? {} : { store: options.store }),
    ...(options.archive === undefined ? {} : { archive: options.archive }),
    ...(options.background === undefined ? {} : { background: options.background }),
    ...options.limits,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    lines,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A `fetch` that remembers each body it sends, to compare with what the upstream received. */
export function recordingFetch(): { fetch: typeof fetch; bodies: string[] } {
  const bodies: string[] = [];
  return {
    bodies,
    fetch: (input, init) => {
      if (typeof init?.body === 'string') bodies.push(init.body);
      return fetch(input, init);
    },
  };
}

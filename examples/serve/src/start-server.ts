import { fileURLToPath } from 'node:url';
import type { CompactionStore } from '@compaction/core';
import { createInstalledStrategyRegistry, listenCompactionServer, resolveSettings } from '@compaction/server';

/** A running server and how to stop it. */
export interface RunningServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  strategyNames: string[];
  /** How many sessions it restored from the store when it started. */
  restored: number;
  close(): Promise<void>;
}

/**
 * Starts what `compaction serve --port 0 --context-window 16k --store <file>` starts, through
 * `@compaction/server`: the installed strategies, the settings from the flags (and a `compaction.config.json`, if
 * one is found from this folder upward), and the HTTP server on a free loopback port, keeping its sessions in
 * `store`.
 */
export async function startServer(store: CompactionStore): Promise<RunningServer> {
  const registry = await createInstalledStrategyRegistry();
  const settings = resolveSettings(
    registry,
    { 'context-window': '16k' },
    fileURLToPath(new URL('..', import.meta.url)),
  );
  // The sessions of the store are restored before the server listens, so it answers nothing before.
  const { server, url } = await listenCompactionServer({ settings, registry, store }, { port: 0 });
  const restored = await server.restored;
  return {
    url,
    strategyNames: settings.strategyNames,
    restored,
    // The graceful stop `compaction serve` runs on SIGTERM: requests in flight finish, event streams end.
    close: async () => {
      await server.shutdown();
    },
  };
}

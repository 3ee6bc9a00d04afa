import { fileURLToPath } from 'node:url';
import { createCliRegistry, createCompactionServer, resolveSettings } from '@compaction/cli';
import type { CompactionStore } from '@compaction/core';

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
 * Starts what `compaction serve --port 0 --context-window 16k --store <file>` starts, through the CLI's
 * programmatic API: the installed strategies, the settings from the flags (and a `compaction.config.json`, if
 * one is found from this folder upward), and the HTTP server on a free loopback port, keeping its sessions in
 * `store`.
 */
export async function startServer(store: CompactionStore): Promise<RunningServer> {
  const registry = await createCliRegistry();
  const settings = resolveSettings(
    registry,
    { 'context-window': '16k' },
    fileURLToPath(new URL('..', import.meta.url)),
  );
  const server = createCompactionServer({ settings, registry, store });
  // The sessions of the store are restored before the server answers anything.
  const restored = await server.restored;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    strategyNames: settings.strategyNames,
    restored,
    // The graceful stop `compaction serve` runs on SIGTERM: requests in flight finish, event streams end.
    close: async () => {
      await server.shutdown();
    },
  };
}

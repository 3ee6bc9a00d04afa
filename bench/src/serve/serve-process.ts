/**
 * A `compaction serve` of the serve bench, in a process of its own: `compactionThreads` from the first
 * argument (0 compacts on the event loop), and the context window of its sessions from the second, when given.
 * Sends its address to the bench, and stops when told to.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInstalledStrategyRegistry, listenCompactionServer, resolveSettings } from '@compaction/server';

const threads = process.argv[2] === undefined ? undefined : Number(process.argv[2]);
const contextWindow = process.argv[3];
const directory = mkdtempSync(join(tmpdir(), 'compaction-bench-serve-'));
const registry = await createInstalledStrategyRegistry();
const settings = resolveSettings(
  registry,
  contextWindow === undefined ? {} : { 'context-window': contextWindow },
  directory,
);
const { server, url } = await listenCompactionServer(
  { settings, registry, ...(threads === undefined ? {} : { compactionThreads: threads }) },
  { port: 0 },
);
process.send?.({ url });
process.on('message', async () => {
  await server.shutdown(5000);
  rmSync(directory, { recursive: true, force: true });
  process.disconnect();
});

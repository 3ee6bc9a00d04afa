// The server side of serve-load.mjs: the server of `compaction serve` built from the package's dist, in a
// process of its own (started with --expose-gc), answering the load script's questions about its memory over IPC.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteCompactionStore } from '@compaction/store-sqlite';
import {
  createCompactionHttpServer,
  createInstalledStrategyRegistry,
  resolveSettings,
} from '../dist/index.js';

const { sessions, idleMs, store: storeKind } = JSON.parse(process.argv[2]);
const store =
  storeKind === 'sqlite'
    ? createSqliteCompactionStore({
        path: join(mkdtempSync(join(tmpdir(), 'compaction-load-')), 'sessions.sqlite'),
      })
    : undefined;
const registry = await createInstalledStrategyRegistry();
// A folder without a compaction.config.json, so the run uses the defaults whatever the working folder.
const settings = resolveSettings(registry, { 'context-window': '16k' }, tmpdir());
const server = createCompactionHttpServer({
  settings,
  registry,
  maxSessions: sessions,
  sessionIdleMs: idleMs,
  maxConcurrent: 8,
  maxQueue: 1024,
  ...(store === undefined ? {} : { store }),
});
await server.restored;

/** Heap and resident memory after two full collections, in bytes. */
function memory() {
  globalThis.gc();
  globalThis.gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
}

process.on('message', async (message) => {
  if (message === 'memory') process.send({ memory: memory() });
  if (message === 'stop') {
    await server.shutdown(5000);
    await store?.close();
    process.disconnect();
  }
});
server.listen(0, '127.0.0.1', () => process.send({ url: `http://127.0.0.1:${server.address().port}` }));

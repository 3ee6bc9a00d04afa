import { Worker } from 'node:worker_threads';
import type { DatabaseWorkerSettings } from './worker-protocol.js';

/** Starts the worker thread that owns a store's database (`database-worker.js` beside this module). */
export function startDatabaseWorker(settings: DatabaseWorkerSettings): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./database-worker.js', import.meta.url), { workerData: settings });
  // Run from source (this package's tests and benchmark, through tsx): Node 20 workers do not inherit the
  // TypeScript loader, so the worker registers tsx, a development dependency, before importing its entry.
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./database-worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true, workerData: settings });
}

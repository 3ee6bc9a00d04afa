// The worker thread of a SqliteCompactionStore: owns the database, runs one call at a time, and waits for
// other processes' locks with timers, so the store's own thread never blocks on SQLite or the file system.
import { parentPort, workerData } from 'node:worker_threads';
import { type Database, SqliteConnection } from './sqlite-connection.js';
import { openDatabase, storeOperations } from './store-operations.js';
import { whenUnlocked } from './when-unlocked.js';
import {
  type DatabaseWorkerSettings,
  transferError,
  type WorkerRequest,
  type WorkerResponse,
} from './worker-protocol.js';

const settings = workerData as DatabaseWorkerSettings;
const port = parentPort!;
let connection: SqliteConnection | undefined;
let opened = false;
let queue = Promise.resolve();

port.on('message', (request: WorkerRequest) => {
  queue = queue.then(() => answer(request));
});

async function answer(request: WorkerRequest): Promise<void> {
  let response: WorkerResponse;
  try {
    response = { id: request.id, value: await run(request) };
  } catch (error) {
    response = { id: request.id, error: transferError(error, settings.path) };
  }
  port.postMessage(response);
}

async function run(request: WorkerRequest): Promise<unknown> {
  if (request.operation === 'close') {
    connection?.close();
    return undefined;
  }
  connection ??= new SqliteConnection(settings.path, settings.staleLockMs);
  const open = connection;
  // Opening waits for the lock like any call, and is tried again by the next call when it failed.
  if (!opened) {
    await whenUnlocked(open, (database) => openDatabase(database, settings.path), settings.busyTimeoutMs);
    opened = true;
  }
  if (request.operation === 'open') return undefined;
  const operation = storeOperations[request.operation] as (database: Database, ...rest: unknown[]) => unknown;
  return whenUnlocked(open, (database) => operation(database, ...request.arguments), settings.busyTimeoutMs);
}

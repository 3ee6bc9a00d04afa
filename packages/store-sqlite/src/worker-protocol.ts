import type { LockRecord } from './database-lock.js';
import { SqliteStoreError, type SqliteStoreErrorReason } from './errors/sqlite-store-error.js';
import type { StoreArguments, StoreOperation } from './store-operations.js';

/** What the store's worker thread is started with. */
export interface DatabaseWorkerSettings {
  path: string;
  busyTimeoutMs: number;
  staleLockMs: number;
}

/**
 * A call sent to the worker: a store operation; `open`, which creates or checks the schema (every operation
 * does it first when it has not been done); or `close`, which closes the database (the store then ends the worker).
 */
export type WorkerRequest =
  | {
      [Operation in StoreOperation]: {
        id: number;
        operation: Operation;
        arguments: StoreArguments<Operation>;
      };
    }[StoreOperation]
  | { id: number; operation: 'open' }
  | { id: number; operation: 'close' };

/** An error as it crosses threads: structured cloning keeps only an error's name, message and stack. */
export interface TransferredError {
  reason: SqliteStoreErrorReason;
  message: string;
  holder?: LockRecord;
}

/** The worker's answer to the request of the same id. */
export type WorkerResponse = { id: number; value: unknown } | { id: number; error: TransferredError };

/** Turns whatever a call threw into what crosses to the calling thread. */
export function transferError(error: unknown, path: string): TransferredError {
  if (SqliteStoreError.isInstance(error))
    return {
      reason: error.reason,
      message: error.message,
      ...(error.holder === undefined ? {} : { holder: error.holder as LockRecord }),
    };
  const detail = error instanceof Error ? error.message : String(error);
  return { reason: 'failed', message: `SQLite failed on ${path}: ${detail}` };
}

/** The typed error again, on the calling thread. */
export function receiveError(error: TransferredError, path: string): SqliteStoreError {
  return new SqliteStoreError({
    reason: error.reason,
    path,
    message: error.message,
    ...(error.holder === undefined ? {} : { holder: error.holder }),
  });
}

import { SqliteStoreError } from './errors/sqlite-store-error.js';
import type { Database, SqliteConnection } from './sqlite-connection.js';

/** Pause between two tries while another process holds the lock; random so waiters do not move in step. */
const retryDelayMs = { minimum: 5, maximum: 15 };

/**
 * Runs `work` on the connection as soon as the lock is free, waiting with timers in between: the thread's
 * event loop never blocks on another process. Fails with a `locked` {@link SqliteStoreError} when a running
 * process held the lock for the whole of `busyTimeoutMs`.
 */
export async function whenUnlocked<T>(
  connection: SqliteConnection,
  work: (database: Database) => T,
  busyTimeoutMs: number,
): Promise<T> {
  const started = performance.now();
  for (;;) {
    const attempt = connection.attempt(work);
    if (attempt.done) return attempt.value;
    const waitedMs = performance.now() - started;
    if (waitedMs >= busyTimeoutMs) {
      const holder = attempt.holder;
      throw new SqliteStoreError({
        reason: 'locked',
        path: connection.path,
        message:
          `${connection.path} stayed locked for ${Math.round(waitedMs)} ms` +
          (holder === undefined
            ? ' by a program that does not record its process'
            : ` by process ${holder.pid} on host ${holder.host}`),
        ...(holder === undefined ? {} : { holder }),
      });
    }
    const delay = retryDelayMs.minimum + Math.random() * (retryDelayMs.maximum - retryDelayMs.minimum);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

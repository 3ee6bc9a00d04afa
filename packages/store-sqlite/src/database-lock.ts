import { linkSync, readFileSync, rmdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { currentProcessIdentity, type ProcessIdentity, processState } from './process-identity.js';

/** What a lock file holds: who took the lock, and when (milliseconds since the epoch). */
export interface LockRecord extends ProcessIdentity {
  acquiredAt: number;
}

/** The outcome of {@link DatabaseLock.tryAcquire}. */
export type LockAttempt = { acquired: true } | { acquired: false; holder: LockRecord | undefined };

/**
 * The lock every call of this package takes before SQLite's own. node-sqlite3-wasm locks a database by
 * creating an empty directory beside it (`<file>.lock`), which says nothing about who made it, so a lock left
 * by a killed process could only be judged by its age. This lock is a file (`<file>.lock-holder`) that
 * appears atomically with its holder's identity inside (written to a private file first, then hard-linked
 * into place), so a waiting process sees at once that the holder is gone and takes the lock over.
 *
 * Calls hold it only while they run synchronously (milliseconds): a process that holds it and is not
 * running any more died mid-call.
 */
export class DatabaseLock {
  private readonly holderPath: string;
  private readonly breakerPath: string;
  private readonly sqliteLockPath: string;
  private readonly identity = currentProcessIdentity();

  constructor(
    databasePath: string,
    private readonly staleLockMs: number,
  ) {
    this.holderPath = `${databasePath}.lock-holder`;
    this.breakerPath = `${databasePath}.lock-breaker`;
    this.sqliteLockPath = `${databasePath}.lock`;
  }

  /** Takes the lock when it is free or its holder is gone; otherwise says who holds it. Never waits. */
  tryAcquire(): LockAttempt {
    if (this.create(this.holderPath)) return { acquired: true };
    const holder = readRecord(this.holderPath);
    if (holder === undefined)
      return this.create(this.holderPath) ? { acquired: true } : { acquired: false, holder };
    if (!this.isAbandoned(holder)) return { acquired: false, holder };
    this.breakAbandoned(holder);
    return this.create(this.holderPath)
      ? { acquired: true }
      : { acquired: false, holder: readRecord(this.holderPath) };
  }

  /** Gives the lock back, unless it was taken over meanwhile (then the file names another holder). */
  release(): void {
    const holder = readRecord(this.holderPath);
    if (holder !== undefined && this.isMine(holder)) removeFile(this.holderPath);
  }

  /**
   * SQLite's own lock, found while this lock is held, was taken by a program that does not take this lock
   * (another node-sqlite3-wasm program): it cannot be checked, so it is cleared by age alone.
   */
  removeSqliteLockOlderThanStale(): void {
    try {
      if (Date.now() - statSync(this.sqliteLockPath).mtimeMs > this.staleLockMs)
        rmdirSync(this.sqliteLockPath);
    } catch {
      // Released meanwhile.
    }
  }

  /**
   * Whether the holder of a lock will never release it: its process is gone; or it cannot be checked (another
   * host, no `/proc`) and the lock is older than `staleLockMs`; or it is this very thread, which holds no
   * lock between calls.
   */
  private isAbandoned(holder: LockRecord): boolean {
    if (this.isMine(holder)) return true;
    const state = processState(holder);
    if (state !== 'unknown') return state === 'gone';
    return Date.now() - holder.acquiredAt > this.staleLockMs;
  }

  /**
   * Removes an abandoned lock. Breakers take a lock of their own first, so that two waiters that both saw the
   * same dead holder cannot both remove the lock, the second one removing the lock the first took meanwhile.
   */
  private breakAbandoned(holder: LockRecord): void {
    if (!this.create(this.breakerPath)) {
      const breaker = readRecord(this.breakerPath);
      // A breaker holds its lock for a few system calls; one that is gone died doing it.
      if (breaker !== undefined && this.isAbandoned(breaker)) removeFile(this.breakerPath);
      return;
    }
    try {
      const current = readRecord(this.holderPath);
      if (current === undefined || !sameRecord(current, holder)) return;
      // SQLite's lock first: whoever takes the lock file next must find SQLite's free too.
      try {
        rmdirSync(this.sqliteLockPath);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      rmSync(privatePath(this.holderPath, holder), { force: true });
      removeFile(this.holderPath);
    } finally {
      removeFile(this.breakerPath);
    }
  }

  /** Creates `path` with this thread's record in it, atomically; false when it exists. */
  private create(path: string): boolean {
    const record: LockRecord = { ...this.identity, acquiredAt: Date.now() };
    const source = privatePath(path, record);
    writeFileSync(source, JSON.stringify(record));
    try {
      linkSync(source, path);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    } finally {
      rmSync(source, { force: true });
    }
  }

  private isMine(record: LockRecord): boolean {
    return (
      record.host === this.identity.host &&
      record.pid === this.identity.pid &&
      record.thread === this.identity.thread
    );
  }
}

/** The file a thread writes its record to before linking it into place; one per thread, reused. */
function privatePath(lockPath: string, identity: ProcessIdentity): string {
  return `${lockPath}.${identity.pid}-${identity.thread}`;
}

/**
 * The record in a lock file; `undefined` when there is none. A file that is not a record (cut short by a
 * power loss) counts as taken when it was last written, by a holder that cannot be checked.
 */
function readRecord(path: string): LockRecord | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as LockRecord;
  } catch {
    return { host: '', pid: 0, thread: 0, acquiredAt: modifiedAt(path) };
  }
}

function modifiedAt(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Date.now();
  }
}

function sameRecord(left: LockRecord, right: LockRecord): boolean {
  return (
    left.host === right.host &&
    left.pid === right.pid &&
    left.thread === right.thread &&
    left.acquiredAt === right.acquiredAt
  );
}

function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

import {
  linkSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { currentProcessIdentity, type ProcessIdentity, processState } from './process-identity.js';

/** Who holds a lock, and since when (the lock file's modification time, in milliseconds since the epoch). */
export interface LockRecord extends ProcessIdentity {
  acquiredAt: number;
}

/** The outcome of {@link DatabaseLock.tryAcquire}. */
export type LockAttempt = { acquired: true } | { acquired: false; holder: LockRecord | undefined };

/**
 * The lock every call of this package takes before SQLite's own. node-sqlite3-wasm locks a database by
 * creating an empty directory beside it (`<file>.lock`), which says nothing about who made it, so a lock left
 * by a killed process could only be judged by its age. This lock is a file (`<file>.lock-holder`) that
 * appears atomically with its holder's identity inside: each thread writes its identity once to a private file
 * (`<file>.lock-holder.<pid>-<thread>`) and takes the lock by hard-linking that file into place, so a waiting
 * process sees at once that the holder is gone and takes the lock over.
 *
 * Calls hold it only while they run synchronously (milliseconds): a process that holds it and is not
 * running any more died mid-call.
 */
export class DatabaseLock {
  private readonly holderPath: string;
  private readonly breakerPath: string;
  private readonly sqliteLockPath: string;
  private readonly identity = currentProcessIdentity();
  private readonly privatePath: string;
  /** The private file's inode, once written: the lock file is this thread's when it is the same file. */
  private privateFile: { dev: number; ino: number } | undefined;

  constructor(
    private readonly databasePath: string,
    private readonly staleLockMs: number,
  ) {
    this.holderPath = `${databasePath}.lock-holder`;
    this.breakerPath = `${databasePath}.lock-breaker`;
    this.sqliteLockPath = `${databasePath}.lock`;
    this.privatePath = privatePathOf(this.holderPath, this.identity);
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

  /** Gives the lock back, unless it was taken over meanwhile (then the lock file is another holder's). */
  release(): void {
    if (this.isMyFile(this.holderPath)) removeFile(this.holderPath);
  }

  /** Removes this thread's private file; the lock is not held between calls. */
  dispose(): void {
    rmSync(this.privatePath, { force: true });
    this.privateFile = undefined;
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
      rmSync(privatePathOf(this.holderPath, holder), { force: true });
      removeFile(this.holderPath);
    } finally {
      removeFile(this.breakerPath);
    }
  }

  /** Creates `path` as a link to this thread's private file, dated now; false when it exists. */
  private create(path: string): boolean {
    if (this.privateFile === undefined) this.writePrivateFile();
    const now = new Date();
    try {
      utimesSync(this.privatePath, now, now);
      linkSync(this.privatePath, path);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code !== 'ENOENT') throw error;
      // The private file was removed (by hand, or by another process's clean-up): write it again.
      this.writePrivateFile();
      return this.create(path);
    }
  }

  /**
   * Writes this thread's private file, first removing the private files that processes now gone left behind
   * (a process killed between two calls leaves its own).
   */
  private writePrivateFile(): void {
    const directory = dirname(this.databasePath);
    const prefix = `${basename(this.holderPath)}.`;
    for (const name of readdirSync(directory)) {
      if (!name.startsWith(prefix) || !/^\d+-\d+$/.test(name.slice(prefix.length))) continue;
      const record = readRecord(join(directory, name));
      if (record !== undefined && !this.isMine(record) && processState(record) === 'gone')
        rmSync(join(directory, name), { force: true });
    }
    writeFileSync(this.privatePath, JSON.stringify(this.identity));
    const { dev, ino } = statSync(this.privatePath);
    this.privateFile = { dev, ino };
  }

  private isMyFile(path: string): boolean {
    try {
      const { dev, ino } = statSync(path);
      return this.privateFile !== undefined && dev === this.privateFile.dev && ino === this.privateFile.ino;
    } catch {
      return false;
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

/** The file a thread writes its identity to once, and links into place to take a lock. */
function privatePathOf(lockPath: string, identity: ProcessIdentity): string {
  return `${lockPath}.${identity.pid}-${identity.thread}`;
}

/**
 * The record in a lock file; `undefined` when there is none. A file that is not a record (cut short by a
 * power loss) counts as held by a holder that cannot be checked.
 */
function readRecord(path: string): LockRecord | undefined {
  let text: string;
  let acquiredAt: number;
  try {
    text = readFileSync(path, 'utf8');
    acquiredAt = statSync(path).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return { ...(JSON.parse(text) as ProcessIdentity), acquiredAt };
  } catch {
    return { host: '', pid: 0, thread: 0, acquiredAt };
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

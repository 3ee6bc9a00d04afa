import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseLock, type LockRecord } from './database-lock.js';
import { currentProcessIdentity } from './process-identity.js';

const directory = mkdtempSync(join(tmpdir(), 'compaction-sqlite-lock-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;
const newPath = () => join(directory, `store-${++files}.db`);

/** A record of this process's identity under another thread: a holder that is running. */
function runningHolder(): LockRecord {
  return { ...currentProcessIdentity(), thread: threadId + 1000, acquiredAt: Date.now() };
}

function goneHolder(): LockRecord {
  return { ...runningHolder(), pid: spawnSync(process.execPath, ['-e', '']).pid! };
}

function placeHolder(path: string, holder: LockRecord | string, name = 'lock-holder'): void {
  writeFileSync(`${path}.${name}`, typeof holder === 'string' ? holder : JSON.stringify(holder));
}

const filesBeside = (path: string) =>
  readdirSync(directory).filter((name) => name.startsWith(`${path.split('/').at(-1)}.`));

describe('DatabaseLock', () => {
  it('takes a free lock and gives it back, leaving no file behind', () => {
    const path = newPath();
    const lock = new DatabaseLock(path, 30_000);
    expect(lock.tryAcquire()).toEqual({ acquired: true });
    expect(filesBeside(path)).toEqual([`${path.split('/').at(-1)}.lock-holder`]);
    lock.release();
    expect(filesBeside(path)).toEqual([]);
  });

  it('leaves the lock of a running holder, and names it', () => {
    const path = newPath();
    const holder = runningHolder();
    placeHolder(path, holder);
    expect(new DatabaseLock(path, 30_000).tryAcquire()).toEqual({ acquired: false, holder });
  });

  it('takes over at once the lock of a holder that is gone, with the SQLite lock it left', () => {
    const path = newPath();
    const holder = goneHolder();
    placeHolder(path, holder);
    placeHolder(path, '{}', `lock-holder.${holder.pid}-${holder.thread}`);
    mkdirSync(`${path}.lock`);
    const lock = new DatabaseLock(path, 600_000);
    expect(lock.tryAcquire()).toEqual({ acquired: true });
    expect(existsSync(`${path}.lock`)).toBe(false);
    lock.release();
    expect(filesBeside(path)).toEqual([]);
  });

  it('takes over the lock of a holder on another host only once it is older than staleLockMs', () => {
    const path = newPath();
    const holder = { ...runningHolder(), host: 'another-host.invalid' };
    placeHolder(path, holder);
    expect(new DatabaseLock(path, 60_000).tryAcquire()).toEqual({ acquired: false, holder });
    placeHolder(path, { ...holder, acquiredAt: Date.now() - 61_000 });
    expect(new DatabaseLock(path, 60_000).tryAcquire()).toEqual({ acquired: true });
  });

  it('dates a lock file that holds no record (cut short by a power loss) by its modification time', () => {
    const path = newPath();
    placeHolder(path, '');
    expect(new DatabaseLock(path, 60_000).tryAcquire()).toMatchObject({ acquired: false });
    const old = new Date(Date.now() - 61_000);
    utimesSync(`${path}.lock-holder`, old, old);
    expect(new DatabaseLock(path, 60_000).tryAcquire()).toEqual({ acquired: true });
  });

  it('takes over a lock this thread left, as it holds none between calls', () => {
    const path = newPath();
    placeHolder(path, { ...currentProcessIdentity(), acquiredAt: Date.now() });
    expect(new DatabaseLock(path, 600_000).tryAcquire()).toEqual({ acquired: true });
  });

  it('clears a breaker that died while breaking, then takes the lock on the next try', () => {
    const path = newPath();
    placeHolder(path, goneHolder());
    placeHolder(path, goneHolder(), 'lock-breaker');
    const lock = new DatabaseLock(path, 600_000);
    expect(lock.tryAcquire()).toMatchObject({ acquired: false });
    expect(existsSync(`${path}.lock-breaker`)).toBe(false);
    expect(lock.tryAcquire()).toEqual({ acquired: true });
  });

  it('waits while another process breaks the lock', () => {
    const path = newPath();
    placeHolder(path, goneHolder());
    placeHolder(path, runningHolder(), 'lock-breaker');
    expect(new DatabaseLock(path, 600_000).tryAcquire()).toMatchObject({ acquired: false });
    expect(existsSync(`${path}.lock-breaker`)).toBe(true);
  });

  it('does not remove on release a lock that another holder took over meanwhile', () => {
    const path = newPath();
    const lock = new DatabaseLock(path, 30_000);
    lock.tryAcquire();
    const successor = runningHolder();
    placeHolder(path, successor);
    lock.release();
    expect(new DatabaseLock(path, 30_000).tryAcquire()).toEqual({ acquired: false, holder: successor });
  });
});

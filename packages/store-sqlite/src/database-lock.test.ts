import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseLock } from './database-lock.js';
import { currentProcessIdentity, type ProcessIdentity } from './process-identity.js';

const directory = mkdtempSync(join(tmpdir(), 'compaction-sqlite-lock-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;
const newPath = () => join(directory, `store-${++files}.db`);

/** This process's identity under another thread: a holder that is running. */
function runningHolder(): ProcessIdentity {
  return { ...currentProcessIdentity(), thread: threadId + 1000 };
}

function goneHolder(): ProcessIdentity {
  return { ...runningHolder(), pid: spawnSync(process.execPath, ['-e', '']).pid! };
}

function placeHolder(path: string, holder: ProcessIdentity | string, name = 'lock-holder'): void {
  writeFileSync(`${path}.${name}`, typeof holder === 'string' ? holder : JSON.stringify(holder));
}

const filesBeside = (path: string) =>
  readdirSync(directory).filter((name) => name.startsWith(`${path.split('/').at(-1)}.`));

describe('DatabaseLock', () => {
  it('takes a free lock and gives it back, leaving no file behind once disposed', () => {
    const path = newPath();
    const lock = new DatabaseLock(path, 30_000);
    const name = path.split('/').at(-1);
    const privateFile = `${name}.lock-holder.${process.pid}-${threadId}`;
    expect(lock.tryAcquire()).toEqual({ acquired: true });
    expect(filesBeside(path).sort()).toEqual([`${name}.lock-holder`, privateFile]);
    lock.release();
    expect(filesBeside(path)).toEqual([privateFile]);
    expect(lock.tryAcquire()).toEqual({ acquired: true });
    lock.release();
    lock.dispose();
    expect(filesBeside(path)).toEqual([]);
  });

  it('removes the private files of processes that are gone, and keeps those of running ones', () => {
    const path = newPath();
    const gone = goneHolder();
    const running = runningHolder();
    placeHolder(path, gone, `lock-holder.${gone.pid}-${gone.thread}`);
    placeHolder(path, running, `lock-holder.${running.pid}-${running.thread}`);
    const lock = new DatabaseLock(path, 30_000);
    lock.tryAcquire();
    lock.release();
    lock.dispose();
    expect(filesBeside(path)).toEqual([
      `${path.split('/').at(-1)}.lock-holder.${running.pid}-${running.thread}`,
    ]);
  });

  it('writes its private file again when it was removed', () => {
    const path = newPath();
    const lock = new DatabaseLock(path, 30_000);
    lock.tryAcquire();
    lock.release();
    rmSync(`${path}.lock-holder.${process.pid}-${threadId}`);
    expect(lock.tryAcquire()).toEqual({ acquired: true });
    lock.release();
    lock.dispose();
  });

  it('leaves the lock of a running holder, and names it', () => {
    const path = newPath();
    const holder = runningHolder();
    placeHolder(path, holder);
    expect(new DatabaseLock(path, 30_000).tryAcquire()).toMatchObject({ acquired: false, holder });
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
    lock.dispose();
    expect(filesBeside(path)).toEqual([]);
  });

  it('takes over the lock of a holder on another host only once it is older than staleLockMs', () => {
    const path = newPath();
    const holder = { ...runningHolder(), host: 'another-host.invalid' };
    placeHolder(path, holder);
    expect(new DatabaseLock(path, 60_000).tryAcquire()).toMatchObject({ acquired: false, holder });
    const old = new Date(Date.now() - 61_000);
    utimesSync(`${path}.lock-holder`, old, old);
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
    placeHolder(path, currentProcessIdentity());
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
    // Taken over: removed by a breaker, then taken by another thread with a file of its own.
    rmSync(`${path}.lock-holder`);
    const successor = runningHolder();
    placeHolder(path, successor);
    lock.release();
    expect(new DatabaseLock(path, 30_000).tryAcquire()).toMatchObject({ acquired: false, holder: successor });
  });
});

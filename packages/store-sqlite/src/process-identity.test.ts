import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { currentProcessIdentity, processState } from './process-identity.js';

const hasProc = existsSync('/proc/self/stat');

/** The id of a process that has ended and been collected. */
function goneProcessId(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

describe('processState', () => {
  it('finds this process running', () => {
    expect(processState(currentProcessIdentity())).toBe(hasProc ? 'running' : 'unknown');
  });

  it('finds an ended process gone', () => {
    expect(processState({ ...currentProcessIdentity(), pid: goneProcessId() })).toBe('gone');
  });

  it('cannot check a process on another host', () => {
    expect(processState({ ...currentProcessIdentity(), host: 'another-host.invalid' })).toBe('unknown');
  });

  it.skipIf(!hasProc)('finds a reused process id gone: the process started at another time', () => {
    const identity = currentProcessIdentity();
    expect(processState({ ...identity, startTicks: identity.startTicks! - 1 })).toBe('gone');
  });

  it.skipIf(!hasProc)('finds an exited process gone while its parent has not collected it', async () => {
    // The shell starts `true`, then becomes `sleep`, which never collects it: `true` stays a zombie.
    const parent = spawn('sh', ['-c', 'true & echo $!; exec sleep 30'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      const pid = Number(
        await new Promise<string>((resolve) => parent.stdout.once('data', (chunk) => resolve(String(chunk)))),
      );
      // No start time recorded: only the zombie state can tell that it is gone.
      const { startTicks: _, ...identity } = currentProcessIdentity();
      const zombie = { ...identity, pid };
      await expect.poll(() => processState(zombie), { timeout: 10_000 }).toBe('gone');
    } finally {
      parent.kill();
    }
  });
});

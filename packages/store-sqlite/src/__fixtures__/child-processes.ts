import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const packageDirectory = fileURLToPath(new URL('../..', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));

/** Runs `write-in-child.ts`: `count` records to `sessionId`, then the process ends without closing. */
export function writeInChild(path: string, sessionId: string, count: number) {
  return promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', fixture('write-in-child.ts'), path, sessionId, String(count)],
    { cwd: packageDirectory },
  );
}

/** A process that holds the store's lock in the middle of a write transaction. */
export interface LockHolder {
  process: ChildProcess;
  /** Lets the process commit and end. */
  release(): void;
  /** Resolves with the exit code (or signal) when the process has ended. */
  ended: Promise<number | NodeJS.Signals | null>;
}

/**
 * Starts `hold-lock-in-child.ts` and resolves once it holds the lock with `rows` uncommitted rows written;
 * `sqlite-only` takes SQLite's lock alone, as the previous version of this package did.
 */
export async function holdLockInChild(
  path: string,
  rows: number,
  mode: 'store' | 'sqlite-only' = 'store',
): Promise<LockHolder> {
  const script = fixture('hold-lock-in-child.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script, path, String(rows), mode], {
    cwd: packageDirectory,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const ended = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('holding\n')) resolve();
    });
    ended.then((code) => reject(new Error(`the lock holder ended (${code}) before taking the lock`)));
  });
  return { process: child, release: () => child.stdin!.write('\n'), ended };
}

import { execFileSync, spawn } from 'node:child_process';
import { binary, packageDirectory } from './run-binary.js';

/** Whether util-linux `script` is here to give a child process a pseudo-terminal. */
export const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

function quote(argument: string): string {
  return `'${argument.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs `node dist/bin.js ...args` inside a pseudo-terminal made by `script` (no native module needed), writing
 * `lines` to it one by one, each when `ready` matches the output so far (or at once). Returns everything the
 * terminal showed.
 */
export function runInTerminal(
  args: string[],
  options: {
    env?: NodeJS.ProcessEnv;
    lines?: Array<{ when: RegExp; send: string }>;
    timeoutMs?: number;
  } = {},
): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, binary, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: packageDirectory,
      env: { PATH: process.env.PATH, TERM: 'dumb', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const pending = [...(options.lines ?? [])];
    let output = '';
    let offset = 0;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out; the terminal showed:\n${output}`));
    }, options.timeoutMs ?? 20_000);
    const feed = () => {
      const next = pending[0];
      if (next === undefined) return;
      const match = next.when.exec(output.slice(offset));
      if (match === null) return;
      offset += match.index + match[0].length;
      pending.shift();
      child.stdin.write(`${next.send}\r`);
      feed();
    };
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      feed();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

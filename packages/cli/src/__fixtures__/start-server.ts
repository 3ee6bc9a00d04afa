import { type ChildProcess, spawn } from 'node:child_process';
import { binary, temporaryDirectory } from './run-binary.js';

/** A running `compaction serve` (or `compaction proxy`) and how to reach and stop it. */
export interface RunningServer {
  url: string;
  child: ChildProcess;
  /** The folder it runs in, where its default store is. */
  directory: string;
  /** What it wrote on standard error so far. */
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `node dist/bin.js serve --port 0 ...args` (or `proxy`, as `command` says) and waits for its address.
 * It runs in `directory`, a fresh temporary folder by default, so its default store
 * (`.compaction/sessions.sqlite`) is its own.
 */
export function startServer(
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
  directory = temporaryDirectory(),
  command: 'serve' | 'proxy' = 'serve',
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binary, command, '--port', '0', ...args], {
      cwd: directory,
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const exited = new Promise<number | null>((done) => child.on('close', done));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match !== null) {
        resolve({
          url: match[1]!,
          child,
          directory,
          stderr: () => stderr,
          stop: () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    child.on('close', (code) => reject(new Error(`${command} exited with ${code}: ${stderr}`)));
  });
}

import { type ChildProcess, spawn } from 'node:child_process';
import { binary, packageDirectory } from './run-binary.js';

/** A running `compaction serve` and how to reach and stop it. */
export interface RunningServer {
  url: string;
  child: ChildProcess;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `node dist/bin.js serve --port 0 ...args` and waits for its address. */
export function startServer(args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binary, 'serve', '--port', '0', ...args], {
      cwd: packageDirectory,
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
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    child.on('close', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

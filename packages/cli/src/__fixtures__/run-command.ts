import { Readable, Writable } from 'node:stream';
import { runCli } from '../cli.js';
import { type BinaryResult, packageDirectory } from './run-binary.js';

/**
 * Runs `compaction ...args` in this process, through the `runCli` that `dist/bin.js` calls, with in-memory
 * streams: the same command code and exit code as the binary without starting a process (about half a second
 * of a two-core machine each). What only the process does (standard input as a pipe, signals, flushing on
 * exit) is tested through `runBinary`; here standard input is empty.
 * Paths in `args` must be absolute: `cwd` is where configs and stores are looked up, but files named on the
 * command line are opened from the test process's own folder.
 */
export async function runCommand(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<BinaryResult> {
  const stdout = collectingStream();
  const stderr = collectingStream();
  const code = await runCli(args, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: Readable.from([]),
    cwd: options.cwd ?? packageDirectory,
    env: { PATH: process.env.PATH, ...options.env },
  });
  return {
    code,
    stdout: await stdout.text(),
    stderr: await stderr.text(),
  };
}

/** A stream that keeps what is written to it; `text()` ends it and resolves with everything written. */
function collectingStream(): { stream: Writable; text(): Promise<string> } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return {
    stream,
    text: () => new Promise((resolve) => stream.end(() => resolve(Buffer.concat(chunks).toString('utf8')))),
  };
}

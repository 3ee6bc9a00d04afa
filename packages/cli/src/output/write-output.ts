import { fstatSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { AtomicWriteOptions } from '@compaction/server';
import { CliError } from '@compaction/server';
import type { CliIO } from '../cli-io.js';
import { writeOutputFile } from './write-output-file.js';

/**
 * Writes text or bytes to a file as {@link writeOutputFile} does (atomically for a regular file, in place for
 * a device or FIFO, refusing a file the user may not write), or to standard output when no path (or `-`) is
 * given or the path names the process's own standard output (`/dev/stdout`, `/proc/self/fd/1`): opening that
 * again fails when it is a socket, and replacing the file it is redirected to would leave the shell's output
 * on the old one.
 */
export async function writeOutput(
  io: CliIO,
  path: string | undefined,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  if (path === undefined || path === '-' || (await isStandardOutput(path))) {
    await new Promise<void>((resolve, reject) =>
      io.stdout.write(data, (error) => (error ? reject(error) : resolve())),
    );
    return;
  }
  try {
    await writeOutputFile(path, data, options);
  } catch (error) {
    if (CliError.isInstance(error)) throw error;
    throw new CliError({
      reason: 'usage',
      message: `cannot write ${path}: ${(error as Error).message}`,
      cause: error,
    });
  }
}

/** Whether `path` is the file, pipe or socket this process's standard output (descriptor 1) writes to. */
async function isStandardOutput(path: string): Promise<boolean> {
  try {
    const [named, output] = [await stat(path), fstatSync(1)];
    return named.ino !== 0 && named.dev === output.dev && named.ino === output.ino;
  } catch {
    return false;
  }
}

import { writeFile } from 'node:fs/promises';
import type { CliIO } from '../cli-io.js';
import { CliError } from '../errors/cli-error.js';

/** Writes text to a file, or to standard output when no path (or `-`) is given. */
export async function writeOutput(io: CliIO, path: string | undefined, text: string): Promise<void> {
  if (path === undefined || path === '-') {
    await new Promise<void>((resolve, reject) =>
      io.stdout.write(text, (error) => (error ? reject(error) : resolve())),
    );
    return;
  }
  try {
    await writeFile(path, text);
  } catch (error) {
    throw new CliError({
      kind: 'usage',
      message: `cannot write ${path}: ${(error as Error).message}`,
      cause: error,
    });
  }
}

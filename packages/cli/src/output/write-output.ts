import type { CliIO } from '../cli-io.js';
import { CliError } from '../errors/cli-error.js';
import { writeFileAtomically } from './write-file-atomically.js';

/**
 * Writes text or bytes to a file, atomically (see {@link writeFileAtomically}), or to standard output when
 * no path (or `-`) is given.
 */
export async function writeOutput(
  io: CliIO,
  path: string | undefined,
  data: string | Uint8Array,
): Promise<void> {
  if (path === undefined || path === '-') {
    await new Promise<void>((resolve, reject) =>
      io.stdout.write(data, (error) => (error ? reject(error) : resolve())),
    );
    return;
  }
  try {
    await writeFileAtomically(path, data);
  } catch (error) {
    throw new CliError({
      reason: 'usage',
      message: `cannot write ${path}: ${(error as Error).message}`,
      cause: error,
    });
  }
}

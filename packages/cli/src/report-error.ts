import { CompactionError } from '@compaction/core';
import type { CliIO } from './cli-io.js';
import { CliError } from './errors/cli-error.js';

/** Prints an error the way the CLI does and returns its exit code. */
export function reportError(error: unknown, io: CliIO): number {
  if (CliError.isInstance(error)) {
    io.stderr.write(`compaction: ${error.message}\n`);
    return error.exitCode;
  }
  if (CompactionError.isInstance(error)) {
    io.stderr.write(`compaction: ${error.message} [${error.code}]\n`);
    return error.code === 'invalid-messages' ? 2 : 1;
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EPIPE') return 0;
  io.stderr.write(
    `compaction: unexpected error (please report it): ${(error as Error)?.stack ?? String(error)}\n`,
  );
  return 70;
}

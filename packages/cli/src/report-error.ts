import { CompactionError } from '@compaction/core';
import type { CliIO } from './cli-io.js';
import { CliError } from './errors/cli-error.js';
import { exitCodes } from './errors/exit-codes.js';

/** Prints an error the way the CLI does and returns its exit code. */
export function reportError(error: unknown, io: CliIO): number {
  if (CliError.isInstance(error)) {
    io.stderr.write(`compaction: ${error.message}\n`);
    return error.exitCode;
  }
  if (CompactionError.isInstance(error)) {
    io.stderr.write(`compaction: ${error.message} [${error.code}]\n`);
    if (error.code === 'core/invalid-messages') return exitCodes.badInput;
    return error.code === 'core/budget-unreachable' ? exitCodes.unreachable : exitCodes.failure;
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EPIPE') return exitCodes.success;
  io.stderr.write(
    `compaction: unexpected error (please report it): ${(error as Error)?.stack ?? String(error)}\n`,
  );
  return exitCodes.unexpected;
}

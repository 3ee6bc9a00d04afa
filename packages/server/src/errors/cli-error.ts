import { PackageError, type PackageErrorSettings } from '@compaction/core';
import type { FormatError } from '@compaction/formats';
import { exitCodes } from './exit-codes.js';

/**
 * Why a command could not run: bad arguments or configuration (exit 1), unreadable input (exit 2), or
 * nothing found under what was asked for (exit 1).
 */
export type CliErrorReason = 'usage' | 'input' | 'config' | 'not-found';

/**
 * An error the user can fix: a bad flag, an unreadable input file, an invalid config. The CLI prints its
 * message on one line, without a stack trace, and exits with {@link CliError.exitCode}.
 */
export class CliError extends PackageError<CliErrorReason> {
  static override readonly marker: string = 'compaction.error.cli';
  override readonly name: string = 'CliError';
  /** 2 for unreadable input, 1 otherwise, unless the command gives its own. */
  declare readonly exitCode: number;

  constructor({ exitCode, ...settings }: PackageErrorSettings<CliErrorReason> & { exitCode?: number }) {
    super('cli', settings);
    const byReason = settings.reason === 'input' ? exitCodes.badInput : exitCodes.failure;
    Object.assign(this, { exitCode: exitCode ?? byReason });
  }
}

/** An unreadable input: one line that says what was wrong and where. Exit code 2. */
export function inputError(message: string, cause?: unknown): CliError {
  return new CliError({ reason: 'input', message, cause });
}

/** A bad flag or argument. Exit code 1. */
export function usageError(message: string): CliError {
  return new CliError({ reason: 'usage', message });
}

/**
 * The CLI's error for a conversation that could not be read or written: the same message, as an input error
 * (exit code 2), a usage error, or a configuration error for a provider package that is not installed.
 */
export function cliErrorOf(error: FormatError): CliError {
  const reason = error.reason === 'missing-package' ? 'config' : error.reason;
  return new CliError({ reason, message: error.message, cause: error });
}

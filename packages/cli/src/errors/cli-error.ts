import { CompactionError } from '@compaction/core';
import { exitCodes } from './exit-codes.js';

const marker = 'compaction.error.cli';
const symbol = Symbol.for(marker);

/** Why a command could not run: bad arguments or configuration (exit 1), or unreadable input (exit 2). */
export type CliErrorKind = 'usage' | 'input' | 'config';

/**
 * An error the user can fix: a bad flag, an unreadable input file, an invalid config. The CLI prints its
 * message on one line, without a stack trace, and exits with {@link CliError.exitCode}.
 */
export class CliError extends CompactionError {
  private readonly [symbol] = true;
  readonly kind: CliErrorKind;
  /** 2 for unreadable input, 1 otherwise. */
  readonly exitCode: number;

  constructor({ kind, message, cause }: { kind: CliErrorKind; message: string; cause?: unknown }) {
    // Core's closed code list has no CLI codes; input problems map to invalid messages, the rest to options.
    super({ code: kind === 'input' ? 'invalid-messages' : 'invalid-options', message, cause });
    this.name = 'CliError';
    this.kind = kind;
    this.exitCode = kind === 'input' ? exitCodes.badInput : exitCodes.failure;
  }

  static override isInstance(error: unknown): error is CliError {
    return CompactionError.hasMarker(error, marker);
  }
}

/** An unreadable input: one line that says what was wrong and where. Exit code 2. */
export function inputError(message: string, cause?: unknown): CliError {
  return new CliError({ kind: 'input', message, cause });
}

/** A bad flag or argument. Exit code 1. */
export function usageError(message: string): CliError {
  return new CliError({ kind: 'usage', message });
}

import { PackageError, type PackageErrorSettings } from '@compaction/core';

/**
 * Why a conversation could not be read or written: the input is not a conversation of its format (`input`:
 * unreadable, invalid JSON, a broken session line, nested too deep, refused by a converter), nothing was given
 * to read (`usage`), or the provider package a format converts with is not installed, or too old
 * (`missing-package`).
 */
export type FormatErrorReason = 'input' | 'usage' | 'missing-package';

/**
 * A conversation that could not be read or written, coded `formats/<reason>`. Its message is one line that
 * says what is wrong and where, meant to be shown as it is.
 */
export class FormatError extends PackageError<FormatErrorReason> {
  static override readonly marker: string = 'compaction.error.formats';
  override readonly name: string = 'FormatError';

  constructor(settings: PackageErrorSettings<FormatErrorReason>) {
    super('formats', settings);
  }
}

/** An input that is not a conversation of its format: one line that says what was wrong and where. */
export function inputError(message: string, cause?: unknown): FormatError {
  return new FormatError({ reason: 'input', message, cause });
}

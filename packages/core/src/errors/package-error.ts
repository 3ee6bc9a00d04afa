import { CompactionError } from './compaction-error.js';

/** What a {@link PackageError} is built from. */
export interface PackageErrorSettings<Reason extends string> {
  /** Which of the package's failures this is. */
  reason: Reason;
  message: string;
  cause?: unknown;
}

/**
 * Base of a package's own error class for several failures told apart by `reason` (a store's `closed` or
 * `locked`, the CLI's `usage` or `input`), coded `<scope>/<reason>` with the package's scope (its name without
 * `@compaction/`). A subclass declares its `marker` and `name`, and the fields of its own.
 */
export abstract class PackageError<Reason extends string> extends CompactionError {
  /** Which of the package's failures this is; the last part of the code. */
  declare readonly reason: Reason;
  constructor(scope: string, { reason, message, cause }: PackageErrorSettings<Reason>) {
    super({ code: `${scope}/${reason}`, message, cause });
    Object.assign(this, { reason });
  }
}

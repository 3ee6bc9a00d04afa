import { CompactionError } from './compaction-error.js';

/** A strategy or provider package is installed but failed to import or exports another name (see `cause`). */
export class PackageLoadError extends CompactionError {
  static override readonly marker: string = 'compaction.error.package-load';
  override readonly name: string = 'PackageLoadError';
  /** The package that failed to load, such as `@compaction/strategy-pruning`. */
  readonly packageName: string;
  constructor({ packageName, cause }: { packageName: string; cause: unknown }) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super({ code: 'core/package-load-failed', message: `Could not load ${packageName}: ${reason}`, cause });
    this.packageName = packageName;
  }
}

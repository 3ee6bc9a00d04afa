import { CompactionError } from './compaction-error.js';

/**
 * The package that provides a strategy or provider by name is installed but could not be used: importing it
 * failed or it exports another name. The original failure is the `cause`.
 */
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

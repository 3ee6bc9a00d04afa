import { CompactionError } from './compaction-error.js';

const marker = 'compaction.error.strategy-not-found';
const symbol = Symbol.for(marker);

/** No strategy is registered under a name, and its package could not be loaded. */
export class StrategyNotFoundError extends CompactionError {
  private readonly [symbol] = true;
  /** The name that was asked for. */
  readonly strategyName: string;
  /** The names that are registered. */
  readonly registeredNames: string[];
  /** The package that would provide the strategy. */
  readonly packageName: string;

  constructor({
    strategyName,
    registeredNames,
    packageName,
    cause,
  }: { strategyName: string; registeredNames: string[]; packageName: string; cause?: unknown }) {
    const registered = registeredNames.length > 0 ? registeredNames.join(', ') : 'none';
    super({
      code: 'strategy-not-found',
      message: `No strategy named "${strategyName}". Registered: ${registered}. Install ${packageName} to use it.`,
      cause,
    });
    this.name = 'StrategyNotFoundError';
    this.strategyName = strategyName;
    this.registeredNames = registeredNames;
    this.packageName = packageName;
  }

  static override isInstance(error: unknown): error is StrategyNotFoundError {
    return CompactionError.hasMarker(error, marker);
  }
}

import { CompactionError } from './compaction-error.js';
import { type DefinitionNotFoundSettings, definitionNotFoundMessage } from './definition-not-found.js';

/** No strategy is registered under a name, and its package is not installed. */
export class StrategyNotFoundError extends CompactionError {
  static override readonly marker: string = 'compaction.error.strategy-not-found';
  override readonly name: string = 'StrategyNotFoundError';
  /** The name that was asked for. */
  readonly strategyName: string;
  /** The names that are registered. */
  readonly registeredNames: string[];
  /** The package that would provide the strategy. */
  readonly packageName: string;

  constructor({ strategyName, ...settings }: { strategyName: string } & DefinitionNotFoundSettings) {
    const message = definitionNotFoundMessage('strategy', strategyName, settings);
    super({ code: 'core/strategy-not-found', message, cause: settings.cause });
    this.strategyName = strategyName;
    this.registeredNames = settings.registeredNames;
    this.packageName = settings.packageName;
  }
}

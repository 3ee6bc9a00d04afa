import { DefinitionNotFoundError, type DefinitionNotFoundSettings } from './definition-not-found.js';

/** No strategy is registered under a name, and its package is not installed. */
export class StrategyNotFoundError extends DefinitionNotFoundError {
  static override readonly marker: string = 'compaction.error.strategy-not-found';
  override readonly name: string = 'StrategyNotFoundError';
  constructor(settings: DefinitionNotFoundSettings) {
    super('core/strategy-not-found', 'strategy', settings);
  }
}

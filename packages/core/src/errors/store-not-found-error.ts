import { DefinitionNotFoundError, type DefinitionNotFoundSettings } from './definition-not-found.js';

/** No store opens a location: neither registered nor installed (the package that would is named). */
export class StoreNotFoundError extends DefinitionNotFoundError {
  static override readonly marker: string = 'compaction.error.store-not-found';
  override readonly name: string = 'StoreNotFoundError';
  constructor(settings: DefinitionNotFoundSettings) {
    super('core/store-not-found', 'store', settings);
  }
}

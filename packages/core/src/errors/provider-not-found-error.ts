import { DefinitionNotFoundError, type DefinitionNotFoundSettings } from './definition-not-found.js';

/** No provider adapter is registered under a name, and its package is not installed. */
export class ProviderNotFoundError extends DefinitionNotFoundError {
  static override readonly marker: string = 'compaction.error.provider-not-found';
  override readonly name: string = 'ProviderNotFoundError';
  constructor(settings: DefinitionNotFoundSettings) {
    super('core/provider-not-found', 'provider', settings);
  }
}

import { CompactionError } from './compaction-error.js';
import { type DefinitionNotFoundSettings, definitionNotFoundMessage } from './definition-not-found.js';

/** No provider adapter is registered under a name, and its package is not installed. */
export class ProviderNotFoundError extends CompactionError {
  static override readonly marker: string = 'compaction.error.provider-not-found';
  override readonly name: string = 'ProviderNotFoundError';
  readonly providerName: string;
  readonly registeredNames: string[];
  readonly packageName: string;

  constructor({ providerName, ...settings }: { providerName: string } & DefinitionNotFoundSettings) {
    const message = definitionNotFoundMessage('provider', providerName, settings);
    super({ code: 'core/provider-not-found', message, cause: settings.cause });
    this.providerName = providerName;
    this.registeredNames = settings.registeredNames;
    this.packageName = settings.packageName;
  }
}

import { CompactionError, type CompactionErrorCode } from './compaction-error.js';

/** What a name that is neither registered nor installed is reported with. */
export interface DefinitionNotFoundSettings {
  /** The name that was asked for. */
  requestedName: string;
  /** The names that are registered. */
  registeredNames: string[];
  /** The package that would provide the name. */
  packageName: string;
  /** Where the package was looked for, when it was: a loader's description, then the folders searched. */
  searched?: readonly string[];
  cause?: unknown;
}

/** Base of {@link StrategyNotFoundError} and {@link ProviderNotFoundError}: a name neither registered nor installed. */
export abstract class DefinitionNotFoundError extends CompactionError {
  /** The name that was asked for. */
  declare readonly requestedName: string;
  /** The names that are registered. */
  declare readonly registeredNames: string[];
  /** The package that would provide the name. */
  declare readonly packageName: string;
  constructor(code: CompactionErrorCode, label: string, settings: DefinitionNotFoundSettings) {
    const { requestedName, registeredNames, packageName, searched, cause } = settings;
    const registered = registeredNames.length > 0 ? registeredNames.join(', ') : 'none';
    const looked =
      searched === undefined || searched.length === 0 ? '' : ` Looked from: ${searched.join(', ')}.`;
    const message = `No ${label} named "${requestedName}". Registered: ${registered}. Install ${packageName} to use it.${looked}`;
    super({ code, message, cause });
    Object.assign(this, { requestedName, registeredNames, packageName });
  }
}

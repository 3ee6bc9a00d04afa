import { CompactionError } from './compaction-error.js';

const marker = 'compaction.error.provider-not-found';
const symbol = Symbol.for(marker);

/** No provider adapter is registered under a name, and its package could not be loaded. */
export class ProviderNotFoundError extends CompactionError {
  private readonly [symbol] = true;
  readonly providerName: string;
  readonly registeredNames: string[];
  readonly packageName: string;

  constructor({
    providerName,
    registeredNames,
    packageName,
    cause,
  }: { providerName: string; registeredNames: string[]; packageName: string; cause?: unknown }) {
    const registered = registeredNames.length > 0 ? registeredNames.join(', ') : 'none';
    super({
      code: 'provider-not-found',
      message: `No provider named "${providerName}". Registered: ${registered}. Install ${packageName} to use it.`,
      cause,
    });
    this.name = 'ProviderNotFoundError';
    this.providerName = providerName;
    this.registeredNames = registeredNames;
    this.packageName = packageName;
  }

  static override isInstance(error: unknown): error is ProviderNotFoundError {
    return CompactionError.hasMarker(error, marker);
  }
}

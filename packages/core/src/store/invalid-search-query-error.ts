import { InvalidOptionsError } from '../errors/invalid-options-error.js';

/**
 * A search of archived items that cannot run: nothing to search for, or a limit that is not a positive
 * integer. An {@link InvalidOptionsError}, so whatever answers bad options answers it too.
 */
export class InvalidSearchQueryError extends InvalidOptionsError {
  static override readonly marker: string = 'compaction.error.invalid-search-query';
  override readonly name: string = 'InvalidSearchQueryError';
  constructor({ path, message }: { path: 'text' | 'limit' | 'sessionId'; message: string }) {
    super({ subject: 'the archive search query', issues: [{ path, message }] });
  }
}

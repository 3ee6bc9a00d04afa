import {
  type ArchivedItem,
  createTokenCounter,
  InvalidOptionsError,
  type Message,
  type TokenCounter,
  type ToolMessage,
  withCompactionMetadata,
} from '@compaction/core';
import {
  archivedChanges,
  shortenToolResultToTokens,
  toolResultSizes,
  truncationNoteCost,
  truncationNoteTokens,
} from '@compaction/strategy-kit';

/** The name recorded on the results {@link capToolResults} shortens. */
export const ingestionCapName = 'tool-result-cap';

/** Options of {@link capToolResults}. */
export interface CapToolResultsOptions {
  /** Results over this many tokens are cut to about this size, start and end kept. Default 2,000. */
  maxResultTokens?: number;
  /** Tools whose results are never cut. Default none. */
  exemptTools?: readonly string[];
  /** Counts messages; default a counter over the fast estimator. Share the Compactor's. */
  counter?: TokenCounter;
  /**
   * Whether each cut note names the recall handle of the whole result, listed in
   * {@link CappedToolResults.archived}. Default false.
   */
  archive?: boolean;
}

/** What {@link capToolResults} returns. */
export interface CappedToolResults {
  /** The messages, each tool message with a result over the cap replaced by a shortened copy. */
  messages: Message[];
  /**
   * The tool messages as they arrived, for each one that was shortened: keep them (with the compaction
   * store's removed messages, for instance) so that the whole output can still be returned on request.
   */
  originals: ToolMessage[];
  /**
   * With `archive`: each whole result a cut note names, under its handle. Store them where the `recall` tool
   * reads (a compaction record's `archived` in the session's store) before the capped messages are sent, or
   * the model is pointed at a handle it cannot recall. Empty without `archive`.
   */
  archived: ArchivedItem[];
}

/**
 * Caps tool results as they arrive, before they are ever sent: with prompt caching every token is paid in
 * full the first time it is written to the cache, so a huge output is cheapest never sent whole. A result
 * over `maxResultTokens` keeps its start and end around a note of what was omitted (the cut of
 * `tool-result-truncation`). Apply it to the messages that arrived since the previous request (capping
 * older ones would change what is cached); other messages are returned as the same objects, inputs are
 * never changed. With `archive`, each cut note names the recall handle of the whole result and the results
 * are returned in `archived`, for the caller to store.
 */
export function capToolResults(
  messages: readonly Message[],
  options: CapToolResultsOptions = {},
): CappedToolResults {
  const maxResultTokens = options.maxResultTokens ?? 2000;
  if (!Number.isInteger(maxResultTokens) || maxResultTokens <= truncationNoteTokens) {
    const message = `must be an integer above ${truncationNoteTokens} (the note of a cut result)`;
    throw new InvalidOptionsError({
      subject: 'capToolResults',
      issues: [{ path: 'maxResultTokens', message }],
    });
  }
  const counter = options.counter ?? createTokenCounter();
  const exempt = new Set(options.exemptTools ?? []);
  const archive = options.archive === true;
  const noteTokens = truncationNoteCost(counter, archive);
  const originals: ToolMessage[] = [];
  const archived: ArchivedItem[] = [];
  const capped = messages.map((message) => {
    if (message.role !== 'tool') return message;
    const sizes = toolResultSizes(message, counter.countMessage(message));
    let content: ToolMessage['content'] | undefined;
    for (const [index, part] of message.content.entries()) {
      const size = sizes[index]!;
      if (exempt.has(part.toolName) || size.tokens <= maxResultTokens) continue;
      content ??= message.content.slice();
      const keepTokens = maxResultTokens - noteTokens;
      content[index] = shortenToolResultToTokens(
        part,
        keepTokens,
        size.characters / size.tokens,
        ingestionCapName,
        archive,
      );
    }
    if (content === undefined) return message;
    originals.push(message);
    const replaced = withCompactionMetadata(
      message,
      { kind: 'modified', strategy: ingestionCapName },
      content,
    );
    if (archive) archived.push(...archivedChanges([message], [replaced]));
    return replaced;
  });
  return { messages: capped, originals, archived };
}

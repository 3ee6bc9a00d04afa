import {
  type ArchivedItem,
  type ArchiveSearchHit,
  type CompactionStore,
  InvalidOptionsError,
  type JSONObject,
} from '@compaction/core';
import {
  parseRecallRequest,
  parseRecallSearch,
  type RecallRequest,
  recallInputSchema,
  recallSearchInputSchema,
} from './recall-request.js';
import { searchAnswerText } from './search-answer.js';
import { selectArchivedText } from './select-archived-text.js';

/** Settings of {@link createRecallTool}. */
export interface RecallToolSettings {
  /** The store the Compactor archived into. */
  store: CompactionStore;
  /** The conversation whose archive the tool reads; handles of other sessions are not found. */
  sessionId: string;
  /** Most characters of archived text in one answer. Default 20,000 (about 5,000 tokens). */
  maximumCharacters?: number;
}

/** What one call of the tool answers. */
export interface RecallAnswer {
  /** `found`; `not-found`, no item under that handle in this session; `invalid`, unusable arguments. */
  status: 'found' | 'not-found' | 'invalid';
  /** The tool result to give the model. */
  text: string;
  /** Whether the size bound cut the part asked for (the text then says how to ask for the rest). */
  truncated: boolean;
  /** For a search (`query`): the items found, best first, as the store answered them. */
  hits?: ArchiveSearchHit[];
}

/** The `recall` tool of one session: its definition for the model and its handler. */
export interface RecallTool {
  readonly name: 'recall';
  readonly description: string;
  /**
   * JSON Schema of the arguments: a {@link RecallRequest}, or, when the store can search (has
   * `searchArchived`), a `RecallToolInput`, which also takes a `query`.
   */
  readonly inputSchema: JSONObject;
  /** Whether the tool takes a `query`: its store can search. */
  readonly searches: boolean;
  /** The archived item under `handle` in this session, exactly as archived; the newest when archived twice. */
  lookup(handle: string): Promise<ArchivedItem | undefined>;
  /** Answers one call. Arguments a model got wrong are an `invalid` answer; a failing store rejects. */
  execute(input: unknown): Promise<RecallAnswer>;
}

const description =
  'Fetches text that was cleared from this conversation to save room. Placeholders name it as ' +
  'recall "<handle>". Pass the handle; for long texts ask for a line range (fromLine, toLine) or only the ' +
  'lines containing a pattern. Answers are bounded in size and say when they were cut.';
const searchDescription =
  ' Without a handle, pass a query (words, or "a phrase" in quotes) to find cleared text by what it said: ' +
  'the answer lists the matching handles with a snippet of each.';
/** Hits of one search: enough to choose from, few enough to read. */
const searchLimit = 10;

/**
 * Creates the `recall` tool over a session's archive (see the Compactor's `archive` setting). Loops offer
 * it to the model and answer its calls with {@link RecallTool.execute}.
 */
export function createRecallTool(settings: RecallToolSettings): RecallTool {
  const { store, sessionId } = settings;
  const maximumCharacters = settings.maximumCharacters ?? 20_000;
  if (!Number.isInteger(maximumCharacters) || maximumCharacters < 100) {
    throw new InvalidOptionsError({
      subject: 'recall tool',
      issues: [{ path: 'maximumCharacters', message: 'must be a whole number of at least 100' }],
    });
  }
  const lookup = async (handle: string) => {
    const records = await store.list(sessionId);
    for (let index = records.length - 1; index >= 0; index--) {
      const found = records[index]?.archived?.find((item) => item.handle === handle);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const search = async (query: string): Promise<RecallAnswer> => {
    let hits: ArchiveSearchHit[];
    try {
      hits = await store.searchArchived!({ text: query, sessionId, limit: searchLimit });
    } catch (error) {
      // A query the store cannot run (nothing to search for) is the model's to change; a failing store rejects.
      if (!InvalidOptionsError.isInstance(error)) throw error;
      const text = `recall: "query" cannot be searched (${(error as Error).message}); use some words.`;
      return { status: 'invalid', text, truncated: false };
    }
    let shown = hits;
    let text = searchAnswerText(query, shown);
    while (text.length > maximumCharacters && shown.length > 1) {
      shown = shown.slice(0, -1);
      text = searchAnswerText(query, shown);
    }
    const truncated = text.length > maximumCharacters || shown.length < hits.length;
    return {
      status: hits.length === 0 ? 'not-found' : 'found',
      text: text.slice(0, maximumCharacters),
      truncated,
      hits,
    };
  };
  const searches = typeof store.searchArchived === 'function';
  const answer = async (request: RecallRequest): Promise<RecallAnswer> => {
    const item = await lookup(request.handle);
    if (item === undefined) {
      const text = `No archived text "${request.handle}" in this conversation: use a handle a placeholder names.`;
      return { status: 'not-found', text, truncated: false };
    }
    return { status: 'found', ...selectArchivedText(item, request, maximumCharacters) };
  };
  return {
    name: 'recall',
    description: searches ? description + searchDescription : description,
    inputSchema: searches ? recallSearchInputSchema : recallInputSchema,
    searches,
    lookup,
    async execute(input) {
      const searched = searches ? parseRecallSearch(input) : undefined;
      if (typeof searched === 'string')
        return { status: 'invalid', text: `recall: ${searched}.`, truncated: false };
      if (searched !== undefined) return search(searched.query);
      const request = parseRecallRequest(input, searches);
      if (typeof request === 'string')
        return { status: 'invalid', text: `recall: ${request}.`, truncated: false };
      return answer(request);
    },
  };
}

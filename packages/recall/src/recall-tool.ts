import {
  type ArchivedItem,
  type CompactionStore,
  InvalidOptionsError,
  type JSONObject,
} from '@compaction/core';
import { parseRecallRequest, type RecallRequest, recallInputSchema } from './recall-request.js';
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
}

/** The `recall` tool of one session: its definition for the model and its handler. */
export interface RecallTool {
  readonly name: 'recall';
  readonly description: string;
  /** JSON Schema of the arguments ({@link RecallRequest}). */
  readonly inputSchema: JSONObject;
  /** The archived item under `handle` in this session, exactly as archived; the newest when archived twice. */
  lookup(handle: string): Promise<ArchivedItem | undefined>;
  /** Answers one call. Arguments a model got wrong are an `invalid` answer; a failing store rejects. */
  execute(input: unknown): Promise<RecallAnswer>;
}

const description =
  'Fetches text that was cleared from this conversation to save room. Placeholders name it as ' +
  'recall "<handle>". Pass the handle; for long texts ask for a line range (fromLine, toLine) or only the ' +
  'lines containing a pattern. Answers are bounded in size and say when they were cut.';

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
    description,
    inputSchema: recallInputSchema,
    lookup,
    async execute(input) {
      const request = parseRecallRequest(input);
      if (typeof request === 'string')
        return { status: 'invalid', text: `recall: ${request}.`, truncated: false };
      return answer(request);
    },
  };
}

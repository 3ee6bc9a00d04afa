import type { CompactionStore } from '@compaction/core';
import { createRecallTool, type RecallRequest } from '@compaction/recall';
import { badRequest, HttpError } from '../errors/http-error.js';

/** What `GET /v1/sessions/{id}/archive/{handle}` answers. */
export interface ArchiveAnswer {
  handle: string;
  label: string;
  /** The archived text exactly; with a line range or pattern, what the recall tool answers a model. */
  text: string;
  /** With a line range or pattern: whether the tool's size bound cut the part asked for. */
  truncated?: boolean;
}

/** The query parameters of a partial answer, as the recall tool names its arguments. */
const partParameters = ['fromLine', 'toLine', 'pattern'] as const;

/**
 * The item a session archived under `handle` (the Compactor's `archive`, on where the server has a store):
 * whole and exact, or, given `fromLine`, `toLine` or `pattern`, the recall tool's answer for that part, bounded
 * as a model gets it. 404 `archive-not-found` when the session has no such item, 400 for unusable parameters.
 */
export async function answerArchive(
  store: CompactionStore | undefined,
  sessionId: string,
  handle: string,
  query: URLSearchParams,
): Promise<ArchiveAnswer> {
  const request = recallRequestOf(handle, query);
  if (store === undefined) {
    throw notFound(
      `no archived text "${handle}": this server keeps no archive (it runs with --store memory)`,
    );
  }
  const tool = createRecallTool({ store, sessionId });
  const item = await tool.lookup(handle);
  if (item === undefined) throw notFound(`no archived text "${handle}" in session "${sessionId}"`);
  if (partParameters.every((name) => !query.has(name))) return item;
  const answer = await tool.execute(request);
  if (answer.status === 'invalid') throw badRequest('invalid-request', answer.text);
  if (answer.status === 'not-found') throw notFound(`no archived text "${handle}" in session "${sessionId}"`);
  return { handle: item.handle, label: item.label, text: answer.text, truncated: answer.truncated };
}

/** The tool's arguments from the query: line numbers as whole numbers, 400 for anything else. */
function recallRequestOf(handle: string, query: URLSearchParams): RecallRequest {
  const request: RecallRequest = { handle };
  for (const name of ['fromLine', 'toLine'] as const) {
    const value = query.get(name);
    if (value === null) continue;
    if (!/^[0-9]{1,15}$/.test(value) || Number(value) < 1) {
      throw badRequest('invalid-request', `${name} must be a line number from 1, not "${value}"`);
    }
    request[name] = Number(value);
  }
  const pattern = query.get('pattern');
  if (pattern !== null) request.pattern = pattern;
  return request;
}

function notFound(message: string): HttpError {
  return new HttpError({ status: 404, errorCode: 'archive-not-found', message });
}

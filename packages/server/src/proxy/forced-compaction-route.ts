import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, HttpError } from '../errors/http-error.js';
import { sendJson } from '../serve/json-response.js';
import { readJsonBody } from '../serve/read-json-body.js';
import { type ForcedCompactions, nextConversationKey } from './forced-compactions.js';

/** Largest body of a forced compaction's request: its instructions. */
const maxBodyBytes = 64 * 1024;

/**
 * `POST /compaction/conversations/{key}/compact`: marks the conversation so that its next request is compacted
 * with `force` (whatever its size) and the body's `instructions`. Answers 202: the compaction happens when that
 * request arrives. Only JSON is taken: a browser page cannot send it to a proxy on loopback without a
 * preflight the proxy does not answer.
 */
export async function answerForcedCompaction(
  request: IncomingMessage,
  response: ServerResponse,
  key: string,
  forced: ForcedCompactions,
): Promise<void> {
  if (request.method !== 'POST') {
    throw new HttpError({
      status: 405,
      errorCode: 'method-not-allowed',
      message: 'use POST /compaction/conversations/{key}/compact',
    });
  }
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new HttpError({
      status: 415,
      errorCode: 'unsupported-media-type',
      message: 'send the request as application/json, such as {"instructions": "Keep the file paths."}',
    });
  }
  const body = (await readJsonBody(request, maxBodyBytes)) ?? {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('invalid-request', 'the body must be a JSON object, such as {"instructions": "..."}');
  }
  const { instructions, ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) {
    throw badRequest('invalid-request', `unknown field "${unknown[0]}": only "instructions" is taken`);
  }
  if (instructions !== undefined && (typeof instructions !== 'string' || instructions.trim() === '')) {
    throw badRequest('invalid-request', '"instructions" must be a text that is not blank');
  }
  forced.mark(key, instructions === undefined ? {} : { instructions });
  sendJson(response, 202, {
    conversation: key,
    pending: true,
    message:
      key === nextConversationKey
        ? 'the next request through the proxy will be compacted'
        : `the next request of conversation "${key}" will be compacted`,
  });
}

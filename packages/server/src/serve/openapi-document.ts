import { storeFailedMessage } from './json-response.js';
import { archiveExamples, compactExamples, errorExample, sessionExamples } from './openapi-examples.js';
import { openApiSchemas, schemaRef } from './openapi-schemas.js';
import { pathIdPattern } from './routes.js';

/** Named examples of a request or answer body, as OpenAPI lists them. */
export type OpenApiExamples = Record<string, { summary?: string; value: unknown }>;

const example = (value: unknown, summary?: string) => ({
  ...(summary === undefined ? {} : { summary }),
  value,
});
const json = (schema: object, examples?: OpenApiExamples) => ({
  'application/json': { schema, ...(examples === undefined ? {} : { examples }) },
});
const answer = (description: string, schema: string, examples: OpenApiExamples) => ({
  description,
  content: json(schemaRef(schema), examples),
});
/** An answer with one example. */
const exampleAnswer = (description: string, schema: string, value: unknown) =>
  answer(description, schema, { example: example(value) });
const requestBody = (schema: string, examples: OpenApiExamples) => ({
  required: true,
  content: json(schemaRef(schema), examples),
});

/** The error answers, by status: what they mean, and one of them as an example. */
const errorAnswers: Record<number, { description: string; code: string; message: string }> = {
  400: {
    description:
      'A body that is not UTF-8 (`invalid-utf8`) or not JSON (`invalid-json`), nested too deeply, a path that is not valid percent-encoding, or invalid messages, config, fields or query parameters.',
    code: errorExample.error.code,
    message: errorExample.error.message,
  },
  401: {
    description: 'The bearer token is missing or wrong (with --token).',
    code: 'unauthorized',
    message: 'missing or wrong bearer token',
  },
  403: {
    description: 'The config chooses something the operator does not allow.',
    code: 'config-not-allowed',
    message:
      'config.provider.baseURL: the provider, its base URL and its credentials are set by the server operator, ' +
      'not by requests; a request may only pick "model" (see --allow-model)',
  },
  404: {
    description:
      'No such session (`session-not-found`), or no such archived item in it (`archive-not-found`); also an id or handle that does not match `^[A-Za-z0-9_-]{1,128}$`, which names nothing.',
    code: 'session-not-found',
    message: 'no session "b82749c1"',
  },
  405: {
    description: 'The path does not take this method: its operations are the methods it takes.',
    code: 'method-not-allowed',
    message: 'PUT is not allowed on /v1/health',
  },
  413: {
    description: 'The body is over --max-body, or the session would pass --max-session-size.',
    code: 'payload-too-large',
    message: 'the request body is larger than the limit of 10485760 bytes',
  },
  422: {
    description: 'No strategy can reach the target or the limit.',
    code: 'budget-unreachable',
    message: 'cannot reach the target of 507 tokens: the best is 1,695, over the limit of 1,400 tokens',
  },
  429: {
    description: 'The server keeps --max-sessions sessions already.',
    code: 'too-many-sessions',
    message: 'this server keeps at most 1000 sessions; delete some or wait for idle ones to expire',
  },
  500: {
    description:
      'An internal error (`internal-error`), the thread compacting a large `/v1/compact` stopped before it answered (`compaction-worker-failed`; send the request again), or the session store failed (`store-failed`). The details stay in the server log.',
    code: 'store-failed',
    message: storeFailedMessage,
  },
  502: {
    description: 'The provider (a summarizer) failed.',
    code: 'provider-error',
    message: 'anthropic: overloaded',
  },
  503: {
    description:
      'The compaction queue is full (with Retry-After), another server sharing the store held the session for the whole lock timeout (`session-busy`, with Retry-After), or the server is stopping.',
    code: 'server-busy',
    message: '8 compactions are running and 64 are waiting; retry after 1 s',
  },
};

/** References to the error answers an operation may give. */
const errors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [String(status), { $ref: `#/components/responses/Error${status}` }]),
  );
/**
 * Every request may get these: a wrong token, another method than the path takes, a slow or oversized body,
 * a failure, a stopping server.
 */
const always = [401, 405, 408, 413, 500, 503];
/** A path with ids may also get a 400 for a segment that is not valid percent-encoding, and a 404. */
const withIds = [400, 404, ...always];
const compacting = [400, 403, 422, 502, ...always];

/** What every id in a path looks like (`pathIdPattern`): anything else names nothing, and is a 404. */
const pathIdSchema = { type: 'string', pattern: pathIdPattern.source };
const sessionId = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The session id, as the server made it (a UUID).',
  schema: pathIdSchema,
};
/** The query parameters of a part of an archived item: the recall tool's arguments. */
const archivePart = [
  {
    name: 'fromLine',
    in: 'query',
    description: 'First line to return, counting from 1.',
    schema: { type: 'integer', minimum: 1 },
  },
  {
    name: 'toLine',
    in: 'query',
    description: 'Last line to return, included.',
    schema: { type: 'integer', minimum: 1 },
  },
  {
    name: 'pattern',
    in: 'query',
    description: 'Only the lines containing this text (case-insensitive), each after its line number.',
    schema: { type: 'string', minLength: 1, maxLength: 1000 },
  },
];
/** One example per format of `POST /v1/compact`: its request or its answer. */
interface FormatExample {
  summary: string;
  request: unknown;
  answer: unknown;
}
const perFormat = (pick: (entry: FormatExample) => unknown): OpenApiExamples =>
  Object.fromEntries(
    Object.entries(compactExamples).map(([format, entry]) => [format, example(pick(entry), entry.summary)]),
  );

/**
 * The OpenAPI 3.1 document of `compaction serve`'s HTTP API, served at `GET /openapi.json`. Its paths are the
 * server's routes; tests check both ways, validate the examples against the schemas and send them.
 */
export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'compaction serve',
    version: '1',
    description:
      'Compacts LLM-agent conversations over HTTP: once (POST /v1/compact), or as sessions that compact as ' +
      'messages arrive and are kept in a store across restarts. Conversations are Anthropic Messages, OpenAI ' +
      'Chat or Responses requests, or core messages, answered in their own format.',
  },
  servers: [{ url: 'http://127.0.0.1:4319' }],
  security: [{}, { bearer: [] }],
  paths: {
    '/openapi.json': {
      get: {
        summary: 'This document',
        responses: {
          200: {
            description: 'The OpenAPI document.',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          ...errors(...always),
        },
      },
    },
    '/v1/health': {
      get: {
        summary: 'Whether the server answers, with its sessions and the compactions in progress',
        responses: {
          200: exampleAnswer('The server is up.', 'Health', sessionExamples.health.answer),
          ...errors(...always),
        },
      },
    },
    '/v1/compact': {
      post: {
        summary: 'Compacts a conversation once and answers it in its format',
        description:
          'A manual compaction down to half of the conversation (or the budget target, if lower), as ' +
          '`compaction compact` does. With nothing to compact, the conversation comes back as it was sent.',
        requestBody: requestBody(
          'CompactRequest',
          perFormat((entry) => entry.request),
        ),
        responses: {
          200: answer(
            'The compacted conversation and what the compaction did.',
            'CompactResponse',
            perFormat((entry) => entry.answer),
          ),
          ...errors(...compacting),
        },
      },
    },
    '/v1/sessions': {
      get: {
        summary: 'The sessions in creation order, a page at a time',
        parameters: [
          {
            name: 'limit',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
          },
          {
            name: 'cursor',
            in: 'query',
            description: 'The `nextCursor` of the page before.',
            schema: { type: 'string' },
          },
        ],
        responses: {
          200: exampleAnswer('A page of sessions.', 'SessionPage', sessionExamples.list.answer),
          ...errors(400, ...always),
        },
      },
      post: {
        summary: 'Starts a session, from a conversation in any format or empty',
        description:
          'The session keeps the format of its conversation (or `format`; `core` when neither is given) and ' +
          'answers in it. It compacts automatically when its trigger fires.',
        requestBody: requestBody('CreateSessionRequest', {
          'openai-chat': example(
            sessionExamples.create.request,
            'An OpenAI Chat request, with a small context window',
          ),
        }),
        responses: {
          201: answer('The new session.', 'SessionChange', {
            'openai-chat': example(sessionExamples.create.answer),
          }),
          ...errors(...compacting, 429),
        },
      },
    },
    '/v1/sessions/{id}': {
      parameters: [sessionId],
      get: {
        summary: 'A session with its conversation',
        responses: {
          200: exampleAnswer('The session.', 'SessionWithConversation', sessionExamples.read.answer),
          ...errors(...withIds),
        },
      },
      delete: {
        summary: 'Deletes a session: streams end; its messages, records and archive leave the store',
        responses: { 204: { description: 'Deleted.' }, ...errors(...withIds) },
      },
    },
    '/v1/sessions/{id}/messages': {
      parameters: [sessionId],
      post: {
        summary: "Appends messages in the session's format; compacts when the trigger fires",
        parameters: [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description:
              "Any 1 to 200 characters, unique per append. An append retried with the key of one of the session's newest 100 appends is not applied again: the answer is the session as it is, with compacted false.",
            schema: { type: 'string', minLength: 1, maxLength: 200 },
          },
        ],
        requestBody: requestBody('AppendRequest', {
          toolCall: example(sessionExamples.appendCall.request, "The model's tool call"),
          toolResult: example(
            sessionExamples.appendResult.request,
            'The result of that call, once the tool ran',
          ),
        }),
        responses: {
          200: answer('The session after the append.', 'SessionChange', {
            toolCall: example(sessionExamples.appendCall.answer),
            toolResult: example(sessionExamples.appendResult.answer),
          }),
          ...errors(...compacting, 404),
        },
      },
    },
    '/v1/sessions/{id}/compact': {
      parameters: [sessionId],
      post: {
        summary: 'Compacts a session now (a manual compaction)',
        requestBody: requestBody('CompactSessionRequest', {
          instructions: example(sessionExamples.compact.request),
          forced: example(sessionExamples.compactForced.request),
        }),
        responses: {
          200: answer('The session after the compaction.', 'SessionChange', {
            instructions: example(sessionExamples.compact.answer),
          }),
          ...errors(...compacting, 404),
        },
      },
    },
    '/v1/sessions/{id}/compactions': {
      parameters: [sessionId],
      get: {
        summary: "The session's newest 100 compaction events, oldest first, and their total",
        responses: {
          200: exampleAnswer('The compaction events.', 'CompactionList', sessionExamples.compactions.answer),
          ...errors(...withIds),
        },
      },
    },
    '/v1/sessions/{id}/events': {
      parameters: [sessionId],
      get: {
        summary: 'Server-sent events: `session.compacted` per compaction, then `session.ended`',
        description:
          'Each `session.compacted` event carries `{"sessionId", "event"}` (its `id:` line the compaction id); ' +
          '`session.ended` carries `{"sessionId", "reason"}`, the reason `deleted`, `expired` or `shutdown`, ' +
          'and the stream ends. A comment line every 15 s keeps proxies from closing it.',
        responses: {
          200: {
            description: 'The event stream.',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
          ...errors(...withIds),
        },
      },
    },
    '/v1/sessions/{id}/archive/{handle}': {
      parameters: [
        sessionId,
        {
          name: 'handle',
          in: 'path',
          required: true,
          description: 'The handle a placeholder of the session names, as `recall "<handle>"`.',
          schema: pathIdSchema,
        },
      ],
      get: {
        summary: 'Text a compaction of the session removed or shortened, by the handle its placeholder names',
        description:
          'Servers with a store (SQLite or PostgreSQL, not `--store memory`) archive what strategies remove or ' +
          'shorten. Without parameters the item comes back whole, its text exactly as it was. With `fromLine`, ' +
          '`toLine` or `pattern`, `text` is what the recall tool answers a model for that part: a first line ' +
          'saying which lines of how many, at most 20,000 characters of them, and `truncated`. Handles of other ' +
          'sessions are not found.',
        parameters: archivePart,
        responses: {
          200: answer('The archived item.', 'ArchivedItem', {
            whole: example(archiveExamples.whole, 'The whole item'),
            lines: example(archiveExamples.lines, 'fromLine=2&toLine=3'),
          }),
          ...errors(...withIds),
        },
      },
    },
  },
  components: {
    schemas: openApiSchemas,
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description: 'Required on every route when the server runs with --token (or COMPACTION_TOKEN).',
      },
    },
    responses: {
      ...Object.fromEntries(
        Object.entries(errorAnswers).map(([status, { description, code, message }]) => [
          `Error${status}`,
          {
            description,
            content: json(schemaRef('Error'), { example: example({ error: { code, message } }) }),
          },
        ]),
      ),
      // Node's HTTP server answers a request that arrives too slowly itself, without a body.
      Error408: {
        description:
          'The headers did not arrive within --headers-timeout, or the whole request within ' +
          '--request-timeout; no body, and the connection closes.',
      },
    },
  },
};

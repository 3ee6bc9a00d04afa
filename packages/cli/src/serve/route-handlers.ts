import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CompactionEvent, Provider, StrategyRegistry } from '@compaction/core';
import { storedContextField, withStoredContext } from '@compaction/formats';
import type { CompactionSettings } from '../config/resolve-settings.js';
import { badRequest } from '../errors/http-error.js';
import { summarizeCompaction } from '../output/compaction-summary.js';
import { compactMessages } from '../run-compaction.js';
import { answerArchive } from './archive-answer.js';
import type { CompactionLimiter } from './compaction-limiter.js';
import type { CompactionSession, SessionOptions } from './compaction-session.js';
import {
  type ConversationWriter,
  inlineConversationWriter,
  sendJsonWithConversation,
} from './conversation-answer.js';
import { parseDecimalInteger } from './decimal-integer.js';
import { openEventStream } from './event-stream.js';
import type { InFlightRequests } from './in-flight-requests.js';
import { sendJson } from './json-response.js';
import { type LiveSessions, maxSessionPage } from './live-sessions.js';
import { openApiDocument } from './openapi-document.js';
import { instructionsOf } from './request-body.js';
import {
  conversationJson,
  parseServedFormat,
  readAppendedMessages,
  readRequestConversation,
  shapeOf,
} from './request-conversation.js';
import type { RouteKey } from './routes.js';
import type { SessionPersistence } from './session-persistence.js';

/** What the route handlers work with: the server's parts, built by `createCompactionServer`. */
export interface ServerParts {
  registry: StrategyRegistry;
  sessions: LiveSessions;
  limiter: CompactionLimiter;
  inFlight: InFlightRequests;
  /** Where sessions are saved; none keeps them in memory only. */
  persistence?: SessionPersistence;
  /** A session unused this long expires, in milliseconds. */
  idleMs: number;
  /** The operator's settings with a request's config laid over it (403 for what the policy refuses). */
  settingsFor(config: unknown): CompactionSettings;
  providerFor(settings: CompactionSettings): Promise<Provider | undefined>;
  /** A new session built from a request's config. */
  buildSession(id: string, config: unknown, options: SessionOptions): Promise<CompactionSession>;
  /** A session by its id, marked as used (404 when there is none); read from a shared store when needed. */
  sessionOf(id: string): Promise<CompactionSession>;
  /** Reads a JSON object body with only the `allowed` fields. */
  readBody(request: IncomingMessage, allowed: readonly string[]): Promise<Record<string, unknown>>;
  /** Writes the conversation a session's answer carries; default on the event loop. */
  writeConversation?: ConversationWriter;
}

/** Answers one route's requests. */
export type RouteHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  parameters: Record<string, string>,
) => Promise<void>;

/** What a change to a session did: whether it compacted, and the compaction's event. */
function changeOf(result: { compacted: boolean; event?: CompactionEvent }) {
  return { compacted: result.compacted, ...(result.event === undefined ? {} : { event: result.event }) };
}

/** The handler of every route (`routes.ts`). */
export function routeHandlers(parts: ServerParts): Record<RouteKey, RouteHandler> {
  const { registry, sessions, limiter, inFlight, persistence, idleMs } = parts;
  const { settingsFor, providerFor, buildSession, readBody } = parts;
  /** Runs a compaction in a limiter slot; 503 at once when the queue is full. */
  const limited = async <T>(
    operation: (runInSlot: <R>(work: () => Promise<R>) => Promise<R>) => Promise<T>,
  ) => {
    const ticket = limiter.admit();
    try {
      return await operation(ticket.run);
    } finally {
      ticket.release();
    }
  };
  const describe = (session: CompactionSession) => ({
    id: session.id,
    format: session.format,
    createdAt: session.createdAt,
    lastActiveAt: new Date(session.lastActiveAt).toISOString(),
    expiresAt: new Date(session.lastActiveAt + idleMs).toISOString(),
    messages: session.messages.length,
    bytes: session.bytes(),
    tokens: session.tokens(),
    budget: session.budget(),
    compactions: session.compactionCount,
  });
  const writeConversation = parts.writeConversation ?? inlineConversationWriter;
  /**
   * Answers a session with its conversation, in its format and shape, and `tail` after it. The description
   * and the messages are taken together, before the conversation is written, so they agree.
   */
  const answerWithConversation = async (
    response: ServerResponse,
    status: number,
    session: CompactionSession,
    tail: Record<string, unknown> = {},
  ) => {
    const head = describe(session);
    const conversation = await writeConversation(session.messages, session.format, session.shape);
    sendJsonWithConversation(response, status, head, conversation, tail);
  };
  const sessionOf = (parameters: Record<string, string>) => parts.sessionOf(parameters.id!);
  /** The session as it is now, for a read: another server sharing the store may have changed it. */
  const freshSessionOf = async (parameters: Record<string, string>) => {
    const session = await sessionOf(parameters);
    await session.refresh();
    return session;
  };

  return {
    'GET /openapi.json': async (_request, response) => sendJson(response, 200, openApiDocument),
    'GET /v1/health': async (_request, response) =>
      sendJson(response, 200, { ok: true, sessions: sessions.size, compactions: limiter.size }),
    'POST /v1/compact': async (request, response) => {
      const input = await readBody(request, ['conversation', 'format', 'config', 'instructions']);
      const settings = settingsFor(input.config);
      const instructions = instructionsOf(input.instructions);
      const format = parseServedFormat(input.format);
      if (input.conversation === undefined) {
        throw badRequest(
          'invalid-request',
          'conversation is required: a provider request, {"messages": [...]} or a list of messages',
        );
      }
      const conversation = await readRequestConversation(input.conversation, format);
      const report = await limited(async (runInSlot) => {
        const provider = await providerFor(settings);
        return runInSlot(() =>
          compactMessages(conversation.messages, {
            settings,
            registry,
            targetOfInput: true,
            ...(provider === undefined ? {} : { provider }),
            ...(instructions === undefined ? {} : { instructions }),
            ...withStoredContext(conversation),
            ...(conversation.envelope === undefined ? {} : { envelope: conversation.envelope }),
          }),
        );
      });
      // Nothing compacted: the conversation as it came (providers cache on the exact prefix).
      const answer = report.compacted
        ? await conversationJson(report.messages, conversation.format, shapeOf(conversation))
        : input.conversation;
      return sendJson(response, 200, {
        conversation: answer,
        report: summarizeCompaction(report, conversation.format),
      });
    },
    'GET /v1/sessions': async (request, response) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const limitText = url.searchParams.get('limit');
      const limit = limitText === null ? 100 : parseDecimalInteger(limitText);
      if (limit === undefined || limit < 1 || limit > maxSessionPage) {
        throw badRequest('invalid-request', `limit must be an integer from 1 to ${maxSessionPage}`);
      }
      const page = sessions.page(limit, url.searchParams.get('cursor') ?? undefined);
      return sendJson(response, 200, {
        sessions: page.sessions.map(describe),
        ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
      });
    },
    'POST /v1/sessions': async (request, response) => {
      // Held until the answer: a creation refused by the cap is refused before it compacts or writes.
      const place = sessions.reserve();
      response.once('close', place.release);
      const input = await readBody(request, ['conversation', 'format', 'config']);
      // A config the policy refuses is refused before the conversation is read.
      settingsFor(input.config);
      const format = parseServedFormat(input.format);
      const conversation =
        input.conversation === undefined
          ? undefined
          : await readRequestConversation(input.conversation, format);
      const storedContext = conversation === undefined ? undefined : storedContextField(conversation);
      if (storedContext !== undefined) {
        throw badRequest(
          'stored-context',
          `conversation continues context the API stores (${storedContext}): a session holds the whole ` +
            `conversation, so start it from the whole conversation, without ${storedContext}`,
        );
      }
      const session = await buildSession(randomUUID(), input.config, {
        format: conversation?.format ?? format ?? 'core',
        ...(conversation === undefined ? {} : { shape: shapeOf(conversation) }),
      });
      // Filled before it is listed, so a refused first append leaves no empty session behind.
      const appended =
        conversation !== undefined && conversation.messages.length > 0
          ? await limited((runInSlot) => session.append(conversation.messages, runInSlot))
          : { compacted: false };
      place.add(session);
      if (persistence !== undefined) {
        session.keepIn(persistence);
        try {
          await persistence.save(session);
        } catch (error) {
          await sessions.delete(session.id).catch(() => undefined);
          throw error;
        }
      }
      return answerWithConversation(response, 201, session, changeOf(appended));
    },
    'GET /v1/sessions/{id}': async (_request, response, parameters) =>
      answerWithConversation(response, 200, await freshSessionOf(parameters)),
    'DELETE /v1/sessions/{id}': async (_request, response, parameters) => {
      await sessions.delete((await sessionOf(parameters)).id);
      response.writeHead(204).end();
    },
    'POST /v1/sessions/{id}/messages': async (request, response, parameters) => {
      const session = await sessionOf(parameters);
      const requestKey = idempotencyKeyOf(request);
      const input = await readBody(request, ['messages']);
      const result = await limited((runInSlot) =>
        session.append(
          (current) => readAppendedMessages(input.messages, session.format, current),
          runInSlot,
          requestKey,
        ),
      );
      return answerWithConversation(response, 200, session, changeOf(result));
    },
    'POST /v1/sessions/{id}/compact': async (request, response, parameters) => {
      const session = await sessionOf(parameters);
      const input = await readBody(request, ['instructions']);
      const instructions = instructionsOf(input.instructions);
      const result = await limited((runInSlot) => session.compact(instructions, runInSlot));
      return answerWithConversation(response, 200, session, {
        ...changeOf(result),
        ...(result.skipped === undefined ? {} : { skipped: result.skipped }),
      });
    },
    'GET /v1/sessions/{id}/compactions': async (_request, response, parameters) => {
      const session = await freshSessionOf(parameters);
      return sendJson(response, 200, { total: session.compactionCount, compactions: session.compactions });
    },
    'GET /v1/sessions/{id}/events': async (request, response, parameters) => {
      const session = await sessionOf(parameters);
      // A stream lives until its session ends; it is not a request a stop waits for.
      inFlight.becomeStream(response);
      openEventStream(session, request, response);
    },
    'GET /v1/sessions/{id}/archive/{handle}': async (request, response, parameters) => {
      const session = await sessionOf(parameters);
      const query = new URL(request.url ?? '/', 'http://localhost').searchParams;
      const answer = await answerArchive(persistence?.store, session.id, parameters.handle!, query);
      return sendJson(response, 200, answer);
    },
  };
}

/** Longest `Idempotency-Key` header. */
export const maxIdempotencyKeyLength = 200;

/** The `Idempotency-Key` header of an append: 1 to 200 characters, or none; 400 otherwise. */
function idempotencyKeyOf(request: IncomingMessage): string | undefined {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || key.length === 0 || key.length > maxIdempotencyKeyLength) {
    throw badRequest(
      'invalid-request',
      `the Idempotency-Key header must be one value of 1 to ${maxIdempotencyKeyLength} characters`,
    );
  }
  return key;
}

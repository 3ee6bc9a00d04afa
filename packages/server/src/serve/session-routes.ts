import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { storedContextField } from '@compaction/formats';
import { badRequest } from '../errors/http-error.js';
import { answerArchive } from './archive-answer.js';
import { parseDecimalInteger } from './decimal-integer.js';
import { openEventStream } from './event-stream.js';
import { sendJson } from './json-response.js';
import { maxSessionPage } from './live-sessions.js';
import { forceOf, instructionsOf } from './request-body.js';
import {
  parseServedFormat,
  readAppendedMessages,
  readRequestConversation,
  shapeOf,
} from './request-conversation.js';
import { changeOf, type RouteContext, type RouteHandler } from './route-context.js';

type SessionRouteKey =
  | 'GET /v1/sessions'
  | 'POST /v1/sessions'
  | 'GET /v1/sessions/{id}'
  | 'DELETE /v1/sessions/{id}';
type SessionActivityRouteKey =
  | 'POST /v1/sessions/{id}/messages'
  | 'POST /v1/sessions/{id}/compact'
  | 'GET /v1/sessions/{id}/compactions'
  | 'GET /v1/sessions/{id}/events'
  | 'GET /v1/sessions/{id}/archive/{handle}';

/** The routes that list, create, read and delete sessions. */
export function sessionRoutes(context: RouteContext): Record<SessionRouteKey, RouteHandler> {
  const { sessions, persistence, settingsFor, buildSession, readBody, limited, describe } = context;
  const { answerWithConversation, freshSessionOf } = context;
  const sessionOf = context.sessionOfRoute;
  return {
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
  };
}

/** The routes of one session's activity: appends, compactions, their events and the archive. */
export function sessionActivityRoutes(context: RouteContext): Record<SessionActivityRouteKey, RouteHandler> {
  const { inFlight, persistence, readBody, limited, answerWithConversation, freshSessionOf } = context;
  const sessionOf = context.sessionOfRoute;
  return {
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
      const input = await readBody(request, ['instructions', 'force']);
      const instructions = instructionsOf(input.instructions);
      const force = forceOf(input.force);
      const result = await limited((runInSlot) => session.compact(instructions, runInSlot, force));
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

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CompactionEvent, Provider, StrategyRegistry } from '@compaction/core';
import type { CompactionSettings } from '../config/resolve-settings.js';
import type { CompactionObserver } from '../observability/service-observability.js';
import type { CompactionLimiter } from './compaction-limiter.js';
import type { CompactionSession, SessionOptions } from './compaction-session.js';
import {
  type ConversationWriter,
  inlineConversationWriter,
  sendJsonWithConversation,
} from './conversation-answer.js';
import type { InFlightRequests } from './in-flight-requests.js';
import type { LiveSessions } from './live-sessions.js';
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
  /** What hears the compactions of `POST /v1/compact`: the server's metrics and log. */
  observer?: CompactionObserver;
}

/** Answers one route's requests. */
export type RouteHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  parameters: Record<string, string>,
) => Promise<void>;

/** What a change to a session did: whether it compacted, and the compaction's event. */
export function changeOf(result: { compacted: boolean; event?: CompactionEvent }) {
  return { compacted: result.compacted, ...(result.event === undefined ? {} : { event: result.event }) };
}

/** What every route works with: the server's parts and the helpers the routes share. */
export interface RouteContext extends ServerParts {
  /** Runs a compaction in a limiter slot; 503 at once when the queue is full. */
  limited<T>(operation: (runInSlot: <R>(work: () => Promise<R>) => Promise<R>) => Promise<T>): Promise<T>;
  /** A session as the routes describe it. */
  describe(session: CompactionSession): Record<string, unknown>;
  /**
   * Answers a session with its conversation, in its format and shape, and `tail` after it. The description
   * and the messages are taken together, before the conversation is written, so they agree.
   */
  answerWithConversation(
    response: ServerResponse,
    status: number,
    session: CompactionSession,
    tail?: Record<string, unknown>,
  ): Promise<void>;
  /** The session a route's `{id}` names, marked as used (404 when there is none). */
  sessionOfRoute(parameters: Record<string, string>): Promise<CompactionSession>;
  /** The session as it is now, for a read: another server sharing the store may have changed it. */
  freshSessionOf(parameters: Record<string, string>): Promise<CompactionSession>;
}

/** The helpers the routes share, over the server's parts. */
export function routeContext(parts: ServerParts): RouteContext {
  const { limiter, idleMs } = parts;
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
  const sessionOfRoute = (parameters: Record<string, string>) => parts.sessionOf(parameters.id!);
  const freshSessionOf = async (parameters: Record<string, string>) => {
    const session = await sessionOfRoute(parameters);
    await session.refresh();
    return session;
  };

  return { ...parts, limited, describe, answerWithConversation, sessionOfRoute, freshSessionOf };
}

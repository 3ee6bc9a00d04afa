import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { StrategyRegistry } from '@compaction/core';
import { mergeConfig } from '../config/merge-config.js';
import type { CompactionSettings } from '../config/resolve-settings.js';
import { badRequest, HttpError } from '../errors/http-error.js';
import { compactMessages } from '../run-compaction.js';
import { hasBearerToken } from './bearer-token.js';
import { CompactionLimiter } from './compaction-limiter.js';
import { CompactionSession, checkMessages } from './compaction-session.js';
import { openEventStream } from './event-stream.js';
import { InFlightRequests } from './in-flight-requests.js';
import { sendError, sendJson } from './json-response.js';
import { LiveSessions, maxSessionPage } from './live-sessions.js';
import { ProviderPool } from './provider-pool.js';
import { readJsonBody } from './read-json-body.js';
import { checkRequestConfig, createRequestPolicy, type RequestPolicy } from './request-policy.js';
import { serverDefaults } from './server-defaults.js';

/** Settings of {@link createCompactionServer}; every limit has a default in {@link serverDefaults}. */
export interface CompactionServerSettings {
  /** The operator's settings: the strategies, budget and provider requests run with. */
  settings: CompactionSettings;
  registry: StrategyRegistry;
  /** What a request's `config` may choose. Default: the operator's strategies, nothing else. */
  requestPolicy?: RequestPolicy;
  /** Required bearer token; none means no authentication. */
  token?: string;
  /** Largest request body in bytes. */
  maxBodyBytes?: number;
  /** Most sessions kept at once; creating more answers 429. */
  maxSessions?: number;
  /** Largest session (its messages as JSON) in bytes; an append past it answers 413. */
  maxSessionBytes?: number;
  /** A session unused this long expires, in milliseconds. */
  sessionIdleMs?: number;
  /** Time for the request line and headers to arrive, in milliseconds (Node's `headersTimeout`). */
  headersTimeoutMs?: number;
  /** Time for the whole request, body included, to arrive, in milliseconds (Node's `requestTimeout`). */
  requestTimeoutMs?: number;
  /** Compactions running at once. */
  maxConcurrent?: number;
  /** Compactions waiting for a slot; more answer 503 with `Retry-After`. */
  maxQueue?: number;
  /** Where the provider's API key is read. */
  environment?: NodeJS.ProcessEnv;
}

/** What a graceful stop did. */
export interface ShutdownResult {
  /** Requests still running at the timeout, whose connections were then closed (0 when all finished). */
  unfinished: number;
}

/** The `node:http` server of `compaction serve`, with a graceful stop. */
export interface CompactionServer extends Server {
  /**
   * Stops accepting connections and answers new requests on open ones with 503, lets the requests in flight
   * finish (up to `timeoutMs`), ends every event stream with `session.ended` (`shutdown`), then closes
   * every connection and resolves once the server is closed.
   */
  shutdown(timeoutMs?: number): Promise<ShutdownResult>;
  /** Requests being answered now, event streams left out. */
  readonly requestsInFlight: number;
}

/**
 * The HTTP API of `compaction serve` on `node:http`: stateless compaction, sessions that compact as messages
 * arrive, and a server-sent-events stream of each session's compactions. Every answer is JSON; every error is
 * `{"error": {"code", "message"}}`. What a request may choose is limited by the request policy: the provider,
 * its address, its credentials and its model are the operator's alone.
 */
export function createCompactionServer(options: CompactionServerSettings): CompactionServer {
  const { registry, settings: operatorSettings } = options;
  const maxBodyBytes = options.maxBodyBytes ?? serverDefaults.maxBodyBytes;
  const maxSessionBytes = options.maxSessionBytes ?? serverDefaults.maxSessionBytes;
  const headersTimeout = options.headersTimeoutMs ?? serverDefaults.headersTimeoutMs;
  const requestTimeout = Math.max(
    headersTimeout,
    options.requestTimeoutMs ?? serverDefaults.requestTimeoutMs,
  );
  const policy =
    options.requestPolicy ?? createRequestPolicy(operatorSettings.config, operatorSettings.provider);
  // Aborted when a stop's timeout passes, so the summaries still waiting on the model do not hold the process.
  const cutOff = new AbortController();
  const providers = new ProviderPool(operatorSettings.provider, options.environment, cutOff.signal);
  const limiter = new CompactionLimiter(
    options.maxConcurrent ?? serverDefaults.maxConcurrent,
    options.maxQueue ?? serverDefaults.maxQueue,
  );
  const sessions = new LiveSessions({
    maxSessions: options.maxSessions ?? serverDefaults.maxSessions,
    idleMs: options.sessionIdleMs ?? serverDefaults.sessionIdleMs,
  });
  const inFlight = new InFlightRequests();
  let draining = false;

  /** The operator's settings with a request's config laid over it, once the policy allows the config. */
  const settingsFor = (config: unknown): CompactionSettings => {
    const checked = checkRequestConfig(config, policy);
    if (checked === undefined) return operatorSettings;
    const { config: override, model } = checked;
    // The provider entry is rebuilt from the operator's own; a request contributes at most a model id.
    const provider =
      model === undefined || operatorSettings.provider === undefined
        ? {}
        : { provider: { ...operatorSettings.provider, model } };
    return mergeConfig(operatorSettings, { ...override, ...provider }, registry);
  };
  const providerFor = (settings: CompactionSettings) => providers.get(settings.provider?.model);

  const objectBody = async (request: IncomingMessage): Promise<Record<string, unknown>> => {
    const value = (await readJsonBody(request, maxBodyBytes)) ?? {};
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw badRequest('invalid-request', 'the request body must be a JSON object');
    }
    return value as Record<string, unknown>;
  };
  const instructionsOf = (value: unknown) => {
    if (value !== undefined && typeof value !== 'string')
      throw badRequest('invalid-request', 'instructions must be a string');
    return value as string | undefined;
  };
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
  const idleMs = options.sessionIdleMs ?? serverDefaults.sessionIdleMs;
  const describe = (session: CompactionSession) => ({
    id: session.id,
    createdAt: session.createdAt,
    lastActiveAt: new Date(session.lastActiveAt).toISOString(),
    expiresAt: new Date(session.lastActiveAt + idleMs).toISOString(),
    messages: session.messages.length,
    bytes: session.bytes(),
    tokens: session.tokens(),
    budget: session.budget(),
    compactions: session.compactionCount,
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const method = request.method ?? 'GET';
    if (options.token !== undefined && !hasBearerToken(request.headers.authorization, options.token)) {
      throw new HttpError({
        status: 401,
        errorCode: 'unauthorized',
        message: 'missing or wrong bearer token',
      });
    }
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const route = (...expected: string[]) => {
      if (!expected.includes(method)) {
        throw new HttpError({
          status: 405,
          errorCode: 'method-not-allowed',
          message: `${method} is not allowed on ${path}`,
        });
      }
    };

    if (path === '/v1/health') {
      route('GET');
      return sendJson(response, 200, { ok: true, sessions: sessions.size, compactions: limiter.size });
    }
    if (path === '/v1/compact') {
      route('POST');
      const input = await objectBody(request);
      const messages = checkMessages(input.messages);
      const instructions = instructionsOf(input.instructions);
      const settings = settingsFor(input.config);
      const report = await limited(async (runInSlot) => {
        const provider = await providerFor(settings);
        return runInSlot(() =>
          compactMessages(messages, {
            settings,
            registry,
            targetOfInput: true,
            ...(provider === undefined ? {} : { provider }),
            ...(instructions === undefined ? {} : { instructions }),
          }),
        );
      });
      const { messages: compacted, event, ...rest } = report;
      return sendJson(response, 200, {
        messages: compacted,
        report: { ...rest, ...(event === undefined ? {} : { event }) },
      });
    }
    if (path === '/v1/sessions') {
      route('GET', 'POST');
      if (method === 'GET') {
        const limitText = url.searchParams.get('limit');
        const limit = limitText === null ? 100 : Number(limitText);
        if (!Number.isInteger(limit) || limit < 1 || limit > maxSessionPage) {
          throw badRequest('invalid-request', `limit must be an integer from 1 to ${maxSessionPage}`);
        }
        const page = sessions.page(limit, url.searchParams.get('cursor') ?? undefined);
        return sendJson(response, 200, {
          sessions: page.sessions.map(describe),
          ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
        });
      }
      sessions.checkCapacity();
      const input = await objectBody(request);
      const messages = input.messages === undefined ? [] : checkMessages(input.messages);
      const settings = settingsFor(input.config);
      const session = await CompactionSession.create(
        randomUUID(),
        settings,
        registry,
        await providerFor(settings),
        maxSessionBytes,
      );
      // Filled before it is listed, so a refused first append leaves no empty session behind.
      const appended =
        messages.length > 0
          ? await limited((runInSlot) => session.append(messages, runInSlot))
          : { compacted: false };
      sessions.add(session);
      return sendJson(response, 201, { ...describe(session), compacted: appended.compacted });
    }
    const match = /^\/v1\/sessions\/([^/]+)(?:\/(messages|compact|compactions|events))?$/.exec(path);
    if (match !== null) {
      let id: string;
      try {
        id = decodeURIComponent(match[1]!);
      } catch {
        throw badRequest('invalid-request', 'the session id is not valid percent-encoding');
      }
      const session = sessions.get(id);
      switch (match[2]) {
        case undefined:
          route('GET', 'DELETE');
          if (method === 'DELETE') {
            sessions.delete(session.id);
            response.writeHead(204).end();
            return;
          }
          return sendJson(response, 200, { ...describe(session), messageList: session.messages });
        case 'messages': {
          route('GET', 'POST');
          if (method === 'GET') return sendJson(response, 200, { messages: session.messages });
          const input = await objectBody(request);
          const result = await limited((runInSlot) => session.append(input.messages, runInSlot));
          return sendJson(response, 200, {
            ...describe(session),
            compacted: result.compacted,
            ...(result.event ? { event: result.event } : {}),
          });
        }
        case 'compact': {
          route('POST');
          const input = await objectBody(request);
          const instructions = instructionsOf(input.instructions);
          const result = await limited((runInSlot) => session.compact(instructions, runInSlot));
          return sendJson(response, 200, {
            ...describe(session),
            compacted: result.compacted,
            ...(result.event === undefined ? {} : { event: result.event }),
            ...(result.skipped === undefined ? {} : { skipped: result.skipped }),
          });
        }
        case 'compactions':
          route('GET');
          return sendJson(response, 200, {
            total: session.compactionCount,
            compactions: session.compactions,
          });
        case 'events':
          route('GET');
          // A stream lives until its session ends; it is not a request a stop waits for.
          inFlight.becomeStream(response);
          return openEventStream(session, request, response);
      }
    }
    throw new HttpError({ status: 404, errorCode: 'not-found', message: `no route ${method} ${path}` });
  }

  // Node's own timeouts cover slow clients: `headersTimeout` for the request line and headers, and
  // `requestTimeout` for the whole request with its body (408, then the connection is closed). Neither runs
  // once the request has arrived, so a slow compaction (a summarizer answering slowly) is not cut off. Node
  // checks them every `connectionsCheckingInterval` (30 s by default), which would let a slow client stay
  // up to 30 s past its timeout, so it is checked more often here.
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
    },
    (request, response) => {
      if (draining) {
        sendError(
          request,
          response,
          new HttpError({ status: 503, errorCode: 'shutting-down', message: 'the server is stopping' }),
          true,
        );
        return;
      }
      inFlight.add(response);
      handle(request, response).catch((error: unknown) => sendError(request, response, error, draining));
    },
  ) as CompactionServer;

  const closed = new Promise<void>((resolve) => server.once('close', resolve));
  server.on('close', () => sessions.close());
  Object.defineProperty(server, 'requestsInFlight', { get: () => inFlight.size });
  // `server.close()` alone waits, without bound, for every connection, event streams included, and lets
  // requests on open connections keep arriving; the stop below bounds the wait and ends the streams itself.
  const stop = async (timeoutMs: number): Promise<ShutdownResult> => {
    draining = true;
    // Stops accepting and closes idle keep-alive connections; busy ones close after their answer.
    server.close();
    inFlight.closeConnectionsAfterAnswers();
    const finished = await inFlight.settled(timeoutMs);
    const unfinished = finished ? 0 : inFlight.size;
    if (!finished) cutOff.abort(new Error('the server stopped before this compaction finished'));
    // Event streams end last, so their listeners still hear the compactions of the requests that finished.
    const streamsEnded = inFlight.streamsEnded();
    sessions.close();
    await streamsEnded;
    server.closeAllConnections();
    await closed;
    return { unfinished };
  };
  let stopping: Promise<ShutdownResult> | undefined;
  server.shutdown = (timeoutMs = serverDefaults.shutdownTimeoutMs) => {
    stopping ??= stop(timeoutMs);
    return stopping;
  };
  return server;
}

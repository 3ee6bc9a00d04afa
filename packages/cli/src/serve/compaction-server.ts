import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { CompactionStore, JSONValue, StrategyRegistry } from '@compaction/core';
import type { CompactionSettings } from '../config/resolve-settings.js';
import { HttpError } from '../errors/http-error.js';
import type { CompactTask } from '../workers/compact-task.js';
import { createCompactionPool, defaultCompactionThreads } from '../workers/compaction-pool.js';
import type { RecordedAnswer } from '../workers/replayed-exchange.js';
import { defaultThreadedHistoryTokens, strategyThreads } from '../workers/threaded-strategy.js';
import { hasBearerToken } from './bearer-token.js';
import { defaultThreadedBodyBytes, threadedCompactRoute } from './compact-route.js';
import { CompactionLimiter } from './compaction-limiter.js';
import { CompactionSession, type SessionEndReason, type SessionOptions } from './compaction-session.js';
import { defaultThreadedAnswerBytes, threadedConversationWriter } from './conversation-answer.js';
import { InFlightRequests } from './in-flight-requests.js';
import { sendError } from './json-response.js';
import { LiveSessions, sweepIntervalMs } from './live-sessions.js';
import { ProviderPool } from './provider-pool.js';
import { reportProblem } from './report-problem.js';
import { readObjectBody } from './request-body.js';
import { createRequestPolicy, type RequestPolicy } from './request-policy.js';
import { requestSettings } from './request-settings.js';
import type { RetentionSettings } from './retention-sweep.js';
import { routeHandlers } from './route-handlers.js';
import { matchRoute } from './routes.js';
import { startServeRetention } from './serve-retention.js';
import { serverDefaults } from './server-defaults.js';
import { type RestoredSession, SessionPersistence } from './session-persistence.js';
import { ShutdownWriteGate } from './shutdown-write-gate.js';

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
  /**
   * Worker threads that compact large `POST /v1/compact` bodies and run the strategies of sessions' large
   * compactions off the event loop, so they do not hold up other requests; 0 compacts everything on the event
   * loop. Default: one less than the cores (`os.availableParallelism()`), at least 1 and at most
   * `maxConcurrent`.
   */
  compactionThreads?: number;
  /** Smallest `POST /v1/compact` body, in bytes, compacted on a thread. Default 256 KiB. */
  threadedBodyBytes?: number;
  /** Smallest session history, in tokens, whose strategy runs on a thread. Default 64,000. */
  threadedHistoryTokens?: number;
  /**
   * Smallest session history, in bytes of its messages as JSON, whose conversation a session's answer carries
   * is converted and serialized on a thread. Default 256 KiB.
   */
  threadedAnswerBytes?: number;
  /** Where the provider's API key is read. */
  environment?: NodeJS.ProcessEnv;
  /**
   * Where sessions, their messages, their compactions and the messages those removed are kept, so a restarted
   * server serves the same sessions. None keeps sessions in memory only, lost when the server stops.
   */
  store?: CompactionStore;
  /** Sessions past this age or beyond this size are deleted from the store whole (needs `store`). */
  retention?: RetentionSettings;
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
  /**
   * Resolves with the number of sessions restored from the store and still live (0 without a store); rejects
   * when the store cannot be read. Requests wait for it.
   */
  readonly restored: Promise<number>;
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
  const maxConcurrent = options.maxConcurrent ?? serverDefaults.maxConcurrent;
  const limiter = new CompactionLimiter(maxConcurrent, options.maxQueue ?? serverDefaults.maxQueue);
  const idleMs = options.sessionIdleMs ?? serverDefaults.sessionIdleMs;
  // A stop's timeout refuses the store writes of the requests it cuts off (see ShutdownWriteGate).
  const writeGate = new ShutdownWriteGate();
  const store = options.store === undefined ? undefined : writeGate.guard(options.store);
  const persistence =
    store === undefined ? undefined : new SessionPersistence(store, sweepIntervalMs(idleMs));
  // A store with session locks is shared with other servers: sessions are read from it when used, not kept.
  const shared = store?.withSessionLock !== undefined;
  /** Removes a deleted or expired session from the store; shared, only when no server used it lately. */
  const onRemoved = async (session: CompactionSession, reason: SessionEndReason) => {
    if (persistence === undefined) return;
    if (shared && reason === 'expired') {
      const stored = await persistence.read(session.id).catch(() => undefined);
      const lastActiveAt = stored === undefined ? 0 : Date.parse(stored.stored.lastActiveAt);
      if (Date.now() - lastActiveAt < idleMs) return;
    }
    await persistence.forget(session.id);
  };
  const sessions = new LiveSessions({
    maxSessions: options.maxSessions ?? serverDefaults.maxSessions,
    idleMs,
    onRemoved,
  });
  const inFlight = new InFlightRequests();
  let draining = false;

  // Started on the first large request, so a server that never gets one starts no thread.
  const pool = createCompactionPool(options.compactionThreads ?? defaultCompactionThreads(maxConcurrent), {
    settings: operatorSettings,
    policy,
    strategyNames: registry.names(),
    ...(options.environment === undefined ? {} : { environment: options.environment }),
    maxBodyBytes,
    idleMs,
  });
  const reportUnavailable = (error: Error) =>
    reportProblem('compacting on the event loop, not on threads', error);
  // Sessions' strategies run on the same threads as `POST /v1/compact`.
  const threadsOfSessions =
    pool === undefined
      ? undefined
      : strategyThreads(
          pool,
          options.threadedHistoryTokens ?? defaultThreadedHistoryTokens,
          reportUnavailable,
        );

  /** The operator's settings with a request's config laid over it, once the policy allows the config. */
  const settingsFor = (config: unknown): CompactionSettings =>
    requestSettings(config, policy, operatorSettings, registry);
  const providerFor = (settings: CompactionSettings) => providers.get(settings.provider?.model);

  /** A session built from a request's or the store's config, with the server's limits and store. */
  const buildSession = async (id: string, config: unknown, options: SessionOptions) => {
    const settings = settingsFor(config);
    return CompactionSession.create(id, settings, registry, await providerFor(settings), {
      ...options,
      ...(config === undefined ? {} : { config: config as JSONValue }),
      maxBytes: maxSessionBytes,
      ...(store === undefined ? {} : { store, shared }),
      ...(threadsOfSessions === undefined ? {} : { threads: threadsOfSessions }),
    });
  };

  /** A session built again from what the store kept of it. */
  const rebuild = ({ id, stored, messages, events }: RestoredSession): Promise<CompactionSession> =>
    buildSession(id, stored.config, {
      format: stored.format,
      ...(stored.shape === undefined ? {} : { shape: stored.shape }),
      restored: {
        sequence: stored.sequence,
        createdAt: stored.createdAt,
        lastActiveAt: Date.parse(stored.lastActiveAt),
        messages,
        events,
        ...(stored.appliedRequests === undefined ? {} : { appliedRequests: stored.appliedRequests }),
      },
    });

  /** A session as the store has it, built and kept by this server; `undefined` when the store has none. */
  const load = async (id: string): Promise<CompactionSession | undefined> => {
    const found = await persistence?.read(id);
    if (found === undefined) return undefined;
    const session = await rebuild(found);
    // Another request may have loaded it meanwhile: the first one kept wins.
    const kept = sessions.find(id);
    if (kept !== undefined) return kept;
    sessions.add(session, true);
    if (persistence !== undefined) session.keepIn(persistence);
    return session;
  };

  /**
   * The session of a request, marked as used; 404 when there is none. Shared, a session this server does
   * not keep yet is read from the store (another server created it).
   */
  const sessionOf = async (id: string): Promise<CompactionSession> => {
    if (shared && sessions.find(id) === undefined) await load(id);
    return sessions.get(id);
  };

  /**
   * Restores the store's sessions, in creation order; those idle past their time while no server ran expire
   * at once. Resolves with how many are left.
   */
  const restoreSessions = async (): Promise<number> => {
    if (persistence === undefined || shared) return 0;
    for (const found of await persistence.restore()) {
      const { id } = found;
      let session: CompactionSession;
      try {
        session = await rebuild(found);
      } catch (error) {
        reportProblem(`session "${id}" not restored`, error);
        continue;
      }
      sessions.add(session, true);
      session.keepIn(persistence);
    }
    sessions.expire();
    return sessions.size;
  };
  const restored = restoreSessions();
  // Requests wait for it and answer its failure; `compaction serve` waits for it before listening.
  restored.catch(() => undefined);
  const retention =
    persistence === undefined || options.retention === undefined
      ? undefined
      : startServeRetention(
          options.retention,
          persistence,
          sessions,
          restored.catch(() => undefined),
        );

  const handlers = routeHandlers({
    registry,
    sessions,
    limiter,
    inFlight,
    idleMs,
    settingsFor,
    providerFor,
    buildSession,
    sessionOf,
    readBody: (request, allowed) => readObjectBody(request, maxBodyBytes, allowed),
    ...(persistence === undefined ? {} : { persistence }),
    ...(pool === undefined
      ? {}
      : {
          writeConversation: threadedConversationWriter({
            pool,
            minimumBytes: options.threadedAnswerBytes ?? defaultThreadedAnswerBytes,
            unavailable: reportUnavailable,
          }),
        }),
  });

  if (pool !== undefined) {
    handlers['POST /v1/compact'] = threadedCompactRoute({
      inline: handlers['POST /v1/compact'],
      pool: {
        run: (task: CompactTask, transfer?: ArrayBuffer[]) =>
          pool.run(task, transfer) as Promise<RecordedAnswer>,
      },
      limiter,
      maxBodyBytes,
      minimumBodyBytes: options.threadedBodyBytes ?? defaultThreadedBodyBytes,
    });
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (options.token !== undefined && !hasBearerToken(request.headers.authorization, options.token)) {
      throw new HttpError({
        status: 401,
        errorCode: 'unauthorized',
        message: 'missing or wrong bearer token',
      });
    }
    const url = new URL(request.url ?? '/', 'http://localhost');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const { key, parameters } = matchRoute(request.method ?? 'GET', path);
    await restored;
    await handlers[key](request, response, parameters);
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
      writeGate
        .run(response, () => handle(request, response))
        .catch((error: unknown) => sendError(request, response, error, draining));
    },
  ) as CompactionServer;

  const closed = new Promise<void>((resolve) => server.once('close', resolve));
  server.on('close', () => {
    retention?.stop();
    sessions.close();
    pool?.close().catch((error: unknown) => reportProblem('could not stop the compaction threads', error));
    persistence?.close().catch((error: unknown) => reportProblem('could not save session activity', error));
  });
  Object.defineProperty(server, 'requestsInFlight', { get: () => inFlight.size });
  Object.defineProperty(server, 'restored', { value: restored });
  // `server.close()` alone waits, without bound, for every connection, event streams included, and lets
  // requests on open connections keep arriving; the stop below bounds the wait and ends the streams itself.
  const stop = async (timeoutMs: number): Promise<ShutdownResult> => {
    draining = true;
    // Stops accepting and closes idle keep-alive connections; busy ones close after their answer.
    server.close();
    inFlight.closeConnectionsAfterAnswers();
    const finished = await inFlight.settled(timeoutMs);
    if (!finished) {
      cutOff.abort(new Error('the server stopped before this compaction finished'));
      pool?.abort('the server stopped before this compaction finished');
      await writeGate.close();
    }
    const unfinished = finished ? 0 : inFlight.size;
    // Event streams end last, so their listeners still hear the compactions of the requests that finished.
    const streamsEnded = inFlight.streamsEnded();
    sessions.close();
    await streamsEnded;
    // The time each session was last used, so a restart expires none of them early.
    await persistence
      ?.close()
      .catch((error: unknown) => reportProblem('could not save session activity', error));
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

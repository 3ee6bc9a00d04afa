import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CompactionSettings } from '../config/resolve-settings.js';
import { HttpError } from '../errors/http-error.js';
import { observeRequests } from '../observability/observe-requests.js';
import { BackgroundSlots } from './background-slots.js';
import { hasBearerToken } from './bearer-token.js';
import type { CompactionServerSettings, ShutdownResult } from './compaction-server-settings.js';
import { sendError } from './json-response.js';
import { ProviderPool } from './provider-pool.js';
import { reportProblem } from './report-problem.js';
import { createRequestPolicy } from './request-policy.js';
import { requestSettings } from './request-settings.js';
import type { RouteHandler } from './route-handlers.js';
import { matchRoute, type RouteKey } from './routes.js';
import { observedServe, serveObservation } from './serve-observation.js';
import { startServeRetention } from './serve-retention.js';
import { serverDefaults } from './server-defaults.js';
import { serverHandlers } from './server-handlers.js';
import { serviceStop } from './service-stop.js';
import { keepSessions, type SessionKeeping } from './session-keeping.js';
import { ShutdownWriteGate } from './shutdown-write-gate.js';

/**
 * The HTTP API of `compaction serve` as a request handler: mount `handle` in any Node `http` server, as its
 * whole handler or for the paths the application routes to it.
 */
export interface CompactionService {
  /** Answers one request; every answer is JSON, every error `{"error": {"code", "message"}}`. Never throws. */
  handle(request: IncomingMessage, response: ServerResponse): void;
  /**
   * Answers new requests with 503, lets the requests in flight finish (up to `timeoutMs`, default 10 s), ends
   * every event stream with `session.ended` (`shutdown`), saves the sessions' activity and stops the threads.
   * Resolves with how many requests were still running at the timeout; calling it again returns the same stop.
   */
  close(timeoutMs?: number): Promise<ShutdownResult>;
  /** Requests being answered now, event streams left out. */
  readonly requestsInFlight: number;
  /**
   * Resolves with the number of sessions restored from the store and still live (0 without a store); rejects
   * when the store cannot be read. Requests wait for it.
   */
  readonly restored: Promise<number>;
}

/**
 * The HTTP API of `compaction serve`: stateless compaction, sessions that compact as messages arrive, and a
 * server-sent-events stream of each session's compactions. What a request may choose is limited by the request
 * policy: the provider, its address, its credentials and its model are the operator's alone. Listening is the
 * application's (or {@link listenCompactionServer}'s).
 */
export function createCompactionServer(options: CompactionServerSettings): CompactionService {
  const { registry, settings: operatorSettings } = options;
  const maxBodyBytes = options.maxBodyBytes ?? serverDefaults.maxBodyBytes;
  const policy =
    options.requestPolicy ?? createRequestPolicy(operatorSettings.config, operatorSettings.provider);
  // Aborted when a stop's timeout passes, so the summaries still waiting on the model do not hold the process.
  const cutOff = new AbortController();
  const providers = new ProviderPool(operatorSettings.provider, options.environment, cutOff.signal);
  const maxConcurrent = options.maxConcurrent ?? serverDefaults.maxConcurrent;
  const idleMs = options.sessionIdleMs ?? serverDefaults.sessionIdleMs;
  // A stop's timeout refuses the store writes of the requests it cuts off (see ShutdownWriteGate).
  const writeGate = new ShutdownWriteGate();
  // Read at each scrape, once the sessions and the limiter below exist.
  const admitted = () => handlers.limiter.size;
  const { observability, store } = observedServe(options, writeGate, () => keeping.sessions.size, admitted);
  const settingsFor = (config: unknown): CompactionSettings =>
    requestSettings(config, policy, operatorSettings, registry);
  const providerFor = (settings: CompactionSettings) => providers.get(settings.provider?.model);
  const handlers = serverHandlers(options, {
    policy,
    maxBodyBytes,
    maxConcurrent,
    idleMs,
    settingsFor,
    providerFor,
    observer: observability,
  });
  const keeping = keepSessions({
    registry,
    ...(store === undefined ? {} : { store }),
    maxSessions: options.maxSessions ?? serverDefaults.maxSessions,
    maxSessionBytes: options.maxSessionBytes ?? serverDefaults.maxSessionBytes,
    idleMs,
    settingsFor,
    providerFor,
    ...(handlers.threads === undefined ? {} : { threads: handlers.threads }),
    ...(options.background === undefined ? {} : { background: new BackgroundSlots(options.background) }),
    observer: observability,
  });
  const restored = keeping.restoreSessions();
  // Requests wait for it and answer its failure; `compaction serve` waits for it before listening.
  restored.catch(() => undefined);
  const { sessions, persistence } = keeping;
  const retention = retentionOf(options, keeping, restored);
  const routes = handlers.routes(keeping);
  const inFlight = handlers.inFlight;
  let draining = false;

  const answer = (request: IncomingMessage, response: ServerResponse): void => {
    if (draining) {
      sendError(request, response, stoppingError(), true);
      return;
    }
    inFlight.add(response);
    writeGate
      .run(response, () => answerRequest(request, response, options.token, restored, routes))
      .catch((error: unknown) => sendError(request, response, error, draining));
  };
  const handle = observeRequests(answer, serveObservation(observability, options.token));

  const stop = serviceStop({
    inFlight,
    sessions,
    writeGate,
    startDraining: () => {
      draining = true;
    },
    cutOff: (reason) => {
      cutOff.abort(new Error(reason));
      handlers.abort(reason);
    },
    close: async () => {
      retention?.stop();
      handlers.close();
      // The time each session was last used, so a restart expires none of them early.
      await persistence
        ?.close()
        .catch((error: unknown) => reportProblem('could not save session activity', error));
    },
  });
  let stopping: Promise<ShutdownResult> | undefined;
  return {
    handle,
    close: (timeoutMs = serverDefaults.shutdownTimeoutMs) => {
      stopping ??= stop(timeoutMs);
      return stopping;
    },
    get requestsInFlight() {
      return inFlight.size;
    },
    restored,
  };
}

/** The sweep of the store's sessions past their retention; none without a store or a retention. */
function retentionOf(options: CompactionServerSettings, keeping: SessionKeeping, restored: Promise<number>) {
  const { persistence, sessions } = keeping;
  if (persistence === undefined || options.retention === undefined) return undefined;
  return startServeRetention(
    options.retention,
    persistence,
    sessions,
    restored.catch(() => undefined),
  );
}

/** Checks the bearer token, matches the route, and answers once the store's sessions are restored. */
async function answerRequest(
  request: IncomingMessage,
  response: ServerResponse,
  token: string | undefined,
  restored: Promise<number>,
  routes: Record<RouteKey, RouteHandler>,
): Promise<void> {
  if (token !== undefined && !hasBearerToken(request.headers.authorization, token)) {
    throw new HttpError({ status: 401, errorCode: 'unauthorized', message: 'missing or wrong bearer token' });
  }
  const url = new URL(request.url ?? '/', 'http://localhost');
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const { key, parameters } = matchRoute(request.method ?? 'GET', path);
  await restored;
  await routes[key](request, response, parameters);
}

/** The answer to a request that arrives while the service stops. */
function stoppingError(): HttpError {
  return new HttpError({ status: 503, errorCode: 'shutting-down', message: 'the server is stopping' });
}

import type { Provider } from '@compaction/core';
import type { CompactionSettings } from '../config/resolve-settings.js';
import type { CompactionObserver } from '../observability/service-observability.js';
import type { CompactTask } from '../workers/compact-task.js';
import { createCompactionPool, defaultCompactionThreads } from '../workers/compaction-pool.js';
import type { RecordedAnswer } from '../workers/replayed-exchange.js';
import {
  defaultThreadedHistoryTokens,
  type StrategyThreads,
  strategyThreads,
} from '../workers/threaded-strategy.js';
import { defaultThreadedBodyBytes, threadedCompactRoute } from './compact-route.js';
import { CompactionLimiter } from './compaction-limiter.js';
import type { CompactionServerSettings } from './compaction-server-settings.js';
import { defaultThreadedAnswerBytes, threadedConversationWriter } from './conversation-answer.js';
import { InFlightRequests } from './in-flight-requests.js';
import { reportProblem } from './report-problem.js';
import { readObjectBody } from './request-body.js';
import type { RequestPolicy } from './request-policy.js';
import { type RouteHandler, routeHandlers } from './route-handlers.js';
import type { RouteKey } from './routes.js';
import { serverDefaults } from './server-defaults.js';
import type { SessionKeeping } from './session-keeping.js';

/** What a server's routes share besides its sessions: the settings resolved once. */
export interface ServerBasics {
  policy: RequestPolicy;
  maxBodyBytes: number;
  maxConcurrent: number;
  idleMs: number;
  settingsFor(config: unknown): CompactionSettings;
  providerFor(settings: CompactionSettings): Promise<Provider | undefined>;
  /** What hears the compactions of `POST /v1/compact`: the server's metrics and log. */
  observer?: CompactionObserver;
}

/** A server's routes and the work they share: the compaction slots, the requests in flight, the threads. */
export interface ServerHandlers {
  inFlight: InFlightRequests;
  /** The compaction slots and their queue. */
  limiter: CompactionLimiter;
  /** Where sessions' large strategies run; none when the server has no threads. */
  threads?: StrategyThreads;
  /** The handler of every route, over the server's sessions. */
  routes(keeping: SessionKeeping): Record<RouteKey, RouteHandler>;
  /** Fails the tasks running on the threads, when a stop's timeout passes. */
  abort(reason: string): void;
  /** Stops the threads. */
  close(): void;
}

/** The routes of {@link createCompactionServer} with their limiter and, unless turned off, their threads. */
export function serverHandlers(options: CompactionServerSettings, basics: ServerBasics): ServerHandlers {
  const { maxBodyBytes, maxConcurrent } = basics;
  const limiter = new CompactionLimiter(maxConcurrent, options.maxQueue ?? serverDefaults.maxQueue);
  const inFlight = new InFlightRequests();
  // Started on the first large request, so a server that never gets one starts no thread.
  const pool = createCompactionPool(options.compactionThreads ?? defaultCompactionThreads(maxConcurrent), {
    settings: options.settings,
    policy: basics.policy,
    strategyNames: options.registry.names(),
    ...(options.environment === undefined ? {} : { environment: options.environment }),
    maxBodyBytes,
    idleMs: basics.idleMs,
  });
  const reportUnavailable = (error: Error) =>
    reportProblem('compacting on the event loop, not on threads', error);
  // Sessions' strategies run on the same threads as `POST /v1/compact`.
  const threads =
    pool === undefined
      ? undefined
      : strategyThreads(
          pool,
          options.threadedHistoryTokens ?? defaultThreadedHistoryTokens,
          reportUnavailable,
        );

  const routes = (keeping: SessionKeeping): Record<RouteKey, RouteHandler> => {
    const handlers = routeHandlers({
      registry: options.registry,
      sessions: keeping.sessions,
      limiter,
      inFlight,
      idleMs: basics.idleMs,
      settingsFor: basics.settingsFor,
      providerFor: basics.providerFor,
      buildSession: keeping.buildSession,
      sessionOf: keeping.sessionOf,
      readBody: (request, allowed) => readObjectBody(request, maxBodyBytes, allowed),
      ...(keeping.persistence === undefined ? {} : { persistence: keeping.persistence }),
      ...(basics.observer === undefined ? {} : { observer: basics.observer }),
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
    if (pool === undefined) return handlers;
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
    return handlers;
  };
  return {
    inFlight,
    limiter,
    ...(threads === undefined ? {} : { threads }),
    routes,
    abort: (reason) => pool?.abort(reason),
    close: () => {
      pool?.close().catch((error: unknown) => reportProblem('could not stop the compaction threads', error));
    },
  };
}

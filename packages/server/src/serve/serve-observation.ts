import type { CompactionStore } from '@compaction/core';
import { HttpError } from '../errors/http-error.js';
import { countStoreErrors } from '../observability/counted-store.js';
import type { RequestObservation } from '../observability/observe-requests.js';
import {
  createServiceObservability,
  type ServiceObservability,
} from '../observability/service-observability.js';
import { hasBearerToken } from './bearer-token.js';
import type { CompactionServerSettings } from './compaction-server-settings.js';
import { sendError } from './json-response.js';
import { matchRoute } from './routes.js';
import type { ShutdownWriteGate } from './shutdown-write-gate.js';

/** The word a path no route has is counted and logged under: never the path, which a client makes up. */
export const unmatchedRoute = 'unmatched';

/** How `compaction serve` names, authorizes and refuses requests for its metrics, logs and spans. */
export function serveObservation(
  observability: ServiceObservability,
  token: string | undefined,
): RequestObservation {
  return {
    ...(observability.metrics === undefined ? {} : { metrics: observability.metrics }),
    log: observability.log,
    ...(observability.tracing === undefined ? {} : { tracing: observability.tracing }),
    routeOf: (method, path) => {
      try {
        const { key, parameters } = matchRoute(method, path);
        const route = key.slice(key.indexOf(' ') + 1);
        return parameters.id === undefined ? { route } : { route, sessionId: parameters.id };
      } catch {
        return { route: unmatchedRoute };
      }
    },
    ...(token === undefined
      ? {}
      : { authorized: (request) => hasBearerToken(request.headers.authorization, token) }),
    refuse: (request, response, status) => sendError(request, response, refusal(status)),
  };
}

function refusal(status: 401 | 404 | 405): HttpError {
  if (status === 401) {
    return new HttpError({ status, errorCode: 'unauthorized', message: 'missing or wrong bearer token' });
  }
  if (status === 405) {
    return new HttpError({ status, errorCode: 'method-not-allowed', message: 'use GET /metrics' });
  }
  return new HttpError({ status, errorCode: 'not-found', message: 'no route GET /metrics: metrics are off' });
}

/**
 * The observability of a serve service, with its live sessions and admitted compactions read at each scrape,
 * and its store with every failure counted: inside the stop's write gate, so a write the stop refuses is not a
 * failure of the store.
 */
export function observedServe(
  options: CompactionServerSettings,
  writeGate: ShutdownWriteGate,
  sessions: () => number,
  queueLength: () => number,
): { observability: ServiceObservability; store?: CompactionStore } {
  const observability = createServiceObservability('serve', options.observability ?? {}, {
    sessions,
    queueLength,
  });
  if (options.store === undefined) return { observability };
  return { observability, store: writeGate.guard(countStoreErrors(options.store, observability.storeError)) };
}

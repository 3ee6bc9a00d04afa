import { HttpError } from '../errors/http-error.js';
import { conversationsPath } from '../proxy/forced-compactions.js';
import { type ProxyStatus, statusPath } from '../proxy/proxy-settings.js';
import { sendError } from '../serve/json-response.js';
import type { ObservabilitySettings } from './observability-settings.js';
import type { RequestObservation } from './observe-requests.js';
import { createServiceObservability, type ServiceObservability } from './service-observability.js';

/** The paths the proxy names in its metrics and logs; every other path is counted as `forwarded`. */
const proxyRoutes = new Set([
  '/v1/messages',
  '/v1/messages/count_tokens',
  '/v1/chat/completions',
  '/v1/responses',
  statusPath,
]);

/**
 * The observability of a proxy: its figures read from `status()` at each scrape (one status per scrape), its
 * routes named by the fixed paths it knows, below `basePath` when it has one.
 */
export function proxyObservability(
  settings: ObservabilitySettings,
  status: () => ProxyStatus,
): ServiceObservability {
  let scraped: ProxyStatus | undefined;
  // The gauges are read one after the other in one render: they share one status, dropped once it is done.
  const current = () => {
    if (scraped === undefined) {
      scraped = status();
      queueMicrotask(() => {
        scraped = undefined;
      });
    }
    return scraped;
  };
  const counted = current as () => ProxyStatus & { storeErrors?: number };
  return createServiceObservability('proxy', settings, {
    sessions: () => current().conversations,
    overflowRetries: () => current().overflowRetries,
    storeErrors: () => counted().storeErrors ?? 0,
  });
}

/** The route template of a forced compaction's request: the key, which a client makes up, is left out. */
const forcedCompactionRoute = `${conversationsPath}{key}/compact`;

/** How the proxy's server names and refuses requests for its metrics, logs and spans. */
export function proxyObservation(
  observability: ServiceObservability,
  basePath: string | undefined,
): RequestObservation {
  const base = basePath?.replace(/\/+$/, '') ?? '';
  return {
    ...(observability.metrics === undefined ? {} : { metrics: observability.metrics }),
    log: observability.log,
    ...(observability.tracing === undefined ? {} : { tracing: observability.tracing }),
    routeOf: (_method, path) => {
      const below = base !== '' && path.startsWith(base) ? path.slice(base.length) || '/' : path;
      if (below.startsWith(conversationsPath)) return { route: forcedCompactionRoute };
      return { route: proxyRoutes.has(below) ? below : 'forwarded' };
    },
    refuse: (request, response, status) =>
      sendError(
        request,
        response,
        status === 404
          ? new HttpError({ status, errorCode: 'not-found', message: 'metrics are off' })
          : new HttpError({ status, errorCode: 'method-not-allowed', message: 'use GET /metrics' }),
      ),
  };
}

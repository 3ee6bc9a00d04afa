import type { IncomingMessage, ServerResponse } from 'node:http';
import { MetricRegistry } from './metric-registry.js';
import { requestIdOf } from './request-id.js';
import { runInRequestScope } from './request-scope.js';
import type { RequestTracing } from './request-tracing.js';
import type { ServiceLog } from './service-log.js';
import type { ServiceMetrics } from './service-metrics.js';

/** The path the metrics are answered on. */
export const metricsPath = '/metrics';

/** A request handler of `node:http`. */
export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** What a request is, as the metrics, logs and spans name it. */
export interface RouteOfRequest {
  /** The route template (`/v1/sessions/{id}`), or a fixed word for a path no route has: never the raw path. */
  route: string;
  sessionId?: string;
}

/** How {@link observeRequests} watches a service's requests. */
export interface RequestObservation {
  /** The service's metrics; none answers `GET /metrics` with 404. */
  metrics?: ServiceMetrics;
  log: ServiceLog;
  tracing?: RequestTracing;
  routeOf(method: string, path: string): RouteOfRequest;
  /** Whether a request may read the metrics (the service's bearer token); default: every request. */
  authorized?(request: IncomingMessage): boolean;
  /** Answers a request that may not read the metrics, or that asks for them when they are off. */
  refuse(request: IncomingMessage, response: ServerResponse, status: 401 | 404 | 405): void;
}

const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Wraps a service's handler: every answer gets an `x-request-id` (the request's own when it is a sane token),
 * `GET /metrics` is answered here, and each request is counted, timed, logged and traced once its answer ends.
 */
export function observeRequests(handle: RequestHandler, observation: RequestObservation): RequestHandler {
  const { metrics, log, tracing } = observation;
  return (request, response) => {
    const started = performance.now();
    const requestId = requestIdOf(request.headers['x-request-id']);
    response.setHeader('x-request-id', requestId);
    // A method outside the standard ones is counted as OTHER: a client must not mint label values.
    const method = knownMethods.has(request.method ?? '') ? (request.method as string) : 'OTHER';
    const path = pathOf(request.url);
    const { route, sessionId } =
      path === metricsPath ? { route: metricsPath } : observation.routeOf(method, path);
    const traced = tracing?.startRequest(request, { method, route, requestId });
    response.once('close', () => {
      const status = response.headersSent ? String(response.statusCode) : 'aborted';
      const seconds = (performance.now() - started) / 1000;
      metrics?.requestFinished({ method, route, status, seconds });
      traced?.end(status);
      log.request({
        requestId,
        method,
        route,
        status,
        durationMs: Math.round(seconds * 1000),
        ...(sessionId === undefined ? {} : { sessionId }),
      });
    });
    const answer = () => {
      if (path === metricsPath) answerMetrics(request, response, observation);
      else handle(request, response);
    };
    const scope = { requestId, route, ...(sessionId === undefined ? {} : { sessionId }) };
    runInRequestScope(scope, () => (traced === undefined ? answer() : traced.run(answer)));
  };
}

function answerMetrics(request: IncomingMessage, response: ServerResponse, observation: RequestObservation) {
  const { metrics } = observation;
  if (metrics === undefined) return observation.refuse(request, response, 404);
  if (observation.authorized !== undefined && !observation.authorized(request)) {
    return observation.refuse(request, response, 401);
  }
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return observation.refuse(request, response, 405);
  const text = metrics.registry.render();
  response.writeHead(200, {
    'content-type': MetricRegistry.contentType,
    'content-length': Buffer.byteLength(text),
  });
  response.end(request.method === 'HEAD' ? undefined : text);
}

/** The path of a request's URL without its query and trailing slashes. */
function pathOf(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0] ?? '/';
  return path.replace(/\/+$/, '') || '/';
}

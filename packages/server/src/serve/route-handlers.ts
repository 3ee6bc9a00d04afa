import { compactRoute } from './compact-route-inline.js';
import { sendJson } from './json-response.js';
import { openApiDocument } from './openapi-document.js';
import { type RouteHandler, routeContext, type ServerParts } from './route-context.js';
import type { RouteKey } from './routes.js';
import { sessionActivityRoutes, sessionRoutes } from './session-routes.js';

export type { RouteHandler, ServerParts } from './route-context.js';

/** The handler of every route (`routes.ts`). */
export function routeHandlers(parts: ServerParts): Record<RouteKey, RouteHandler> {
  const context = routeContext(parts);
  const { sessions, limiter } = parts;
  return {
    'GET /openapi.json': async (_request, response) => sendJson(response, 200, openApiDocument),
    'GET /v1/health': async (_request, response) =>
      sendJson(response, 200, { ok: true, sessions: sessions.size, compactions: limiter.size }),
    'POST /v1/compact': compactRoute(context),
    ...sessionRoutes(context),
    ...sessionActivityRoutes(context),
  };
}

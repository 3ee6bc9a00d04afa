import { badRequest, HttpError } from '../errors/http-error.js';

/**
 * Every route of the HTTP API, as OpenAPI writes them (`{id}` is one path segment). The server answers
 * these and nothing else, and the OpenAPI document is checked against this list.
 */
export const routes = [
  { method: 'GET', path: '/openapi.json' },
  { method: 'GET', path: '/v1/health' },
  { method: 'POST', path: '/v1/compact' },
  { method: 'GET', path: '/v1/sessions' },
  { method: 'POST', path: '/v1/sessions' },
  { method: 'GET', path: '/v1/sessions/{id}' },
  { method: 'DELETE', path: '/v1/sessions/{id}' },
  { method: 'POST', path: '/v1/sessions/{id}/messages' },
  { method: 'POST', path: '/v1/sessions/{id}/compact' },
  { method: 'GET', path: '/v1/sessions/{id}/compactions' },
  { method: 'GET', path: '/v1/sessions/{id}/events' },
  { method: 'GET', path: '/v1/sessions/{id}/archive/{handle}' },
] as const;

/** One route. */
export type Route = (typeof routes)[number];

/** A route's key, such as `GET /v1/sessions/{id}`. */
export type RouteKey = KeyOf<Route>;
type KeyOf<Each> = Each extends { method: infer Method extends string; path: infer Path extends string }
  ? `${Method} ${Path}`
  : never;

/** The route a request asks for, with its path parameters, decoded. */
export interface MatchedRoute {
  key: RouteKey;
  parameters: Record<string, string>;
}

/**
 * What every id in a path (a session id, an archive handle) looks like: 1 to 128 ASCII letters, digits, `-`
 * or `_`. The server makes session ids (UUIDs) and handles (base 36) of these only, so an id of anything
 * else names nothing, and is answered 404 before it reaches the store.
 */
export const pathIdPattern = /^[A-Za-z0-9_-]{1,128}$/;

/** The 404 code of each path parameter that names something: what is not found when it does not match. */
const notFoundCodes: Record<string, { code: string; what: string }> = {
  id: { code: 'session-not-found', what: 'session' },
  handle: { code: 'archive-not-found', what: 'archived text' },
};

/**
 * Finds the route of a request: 404 for a path no route has or an id that does not match
 * {@link pathIdPattern}, 405 for a method its path does not take.
 */
export function matchRoute(method: string, path: string): MatchedRoute {
  const segments = path.split('/');
  let pathFound = false;
  for (const route of routes) {
    const parameters = matchPath(route.path.split('/'), segments);
    if (parameters === undefined) continue;
    pathFound = true;
    if (route.method !== method) continue;
    checkIds(parameters);
    return { key: `${route.method} ${route.path}` as RouteKey, parameters };
  }
  if (pathFound) {
    throw new HttpError({
      status: 405,
      errorCode: 'method-not-allowed',
      message: `${method} is not allowed on ${path}`,
    });
  }
  throw new HttpError({ status: 404, errorCode: 'not-found', message: `no route ${method} ${path}` });
}

/** Refuses, with 404, a path parameter that cannot name anything (not echoed: it may hold any byte). */
function checkIds(parameters: Record<string, string>): void {
  for (const [name, value] of Object.entries(parameters)) {
    if (pathIdPattern.test(value)) continue;
    const { code, what } = notFoundCodes[name] ?? { code: 'not-found', what: name };
    throw new HttpError({
      status: 404,
      errorCode: code,
      message: `no such ${what}: ${name}s are 1 to 128 letters, digits, "-" or "_"`,
    });
  }
}

function matchPath(template: string[], segments: string[]): Record<string, string> | undefined {
  if (template.length !== segments.length) return undefined;
  const parameters: Record<string, string> = {};
  for (const [index, part] of template.entries()) {
    const segment = segments[index]!;
    if (part.startsWith('{') && part.endsWith('}')) {
      if (segment === '') return undefined;
      try {
        parameters[part.slice(1, -1)] = decodeURIComponent(segment);
      } catch {
        throw badRequest('invalid-request', `the path segment "${segment}" is not valid percent-encoding`);
      }
    } else if (part !== segment) {
      return undefined;
    }
  }
  return parameters;
}

import type { IncomingHttpHeaders } from 'node:http';
import { HttpError } from '../errors/http-error.js';
import type { ProxyRoute, UpstreamProvider, Upstreams } from './upstreams.js';

/**
 * The first path segment after `/v1/` of every endpoint each SDK calls (`@anthropic-ai/sdk` and `openai`, read
 * from their sources; a test checks the installed SDKs call nothing else). A path that is in neither list is
 * refused, not guessed: forwarding it would send the client's credential to an upstream that does not serve it.
 */
const anthropicSegments = new Set([
  'agents',
  'complete',
  'deployment_runs',
  'deployments',
  'dreams',
  'environments',
  'memory_stores',
  'messages',
  'oauth',
  'organizations',
  'sessions',
  'tunnels',
  'user_profiles',
  'vaults',
]);
const openaiSegments = new Set([
  'assistants',
  'audio',
  'batches',
  'chat',
  'chatkit',
  'completions',
  'containers',
  'conversations',
  'embeddings',
  'evals',
  'fine_tuning',
  'images',
  'moderations',
  'organization',
  'projects',
  'realtime',
  'responses',
  'threads',
  'uploads',
  'vector_stores',
  'videos',
]);
/** Segments both APIs have: the request's own marks decide. */
const sharedSegments = new Set(['files', 'models', 'skills']);

/** The paths whose conversation the proxy compacts. */
const compactedPaths: Record<string, Required<ProxyRoute>> = {
  '/v1/messages': { provider: 'anthropic', format: 'anthropic' },
  '/v1/chat/completions': { provider: 'openai', format: 'openai-chat' },
  '/v1/responses': { provider: 'openai', format: 'openai-responses' },
};

/** Which API a path belongs to: one provider's, both (`shared`), or neither. */
export function pathFamily(path: string): UpstreamProvider | 'shared' | 'unknown' {
  const segment = /^\/v1\/([^/]+)/.exec(path)?.[1];
  if (segment === undefined) return 'unknown';
  if (anthropicSegments.has(segment)) return 'anthropic';
  if (openaiSegments.has(segment)) return 'openai';
  return sharedSegments.has(segment) ? 'shared' : 'unknown';
}

/** What a request says of the provider it was written for, from its headers alone. */
export interface ProviderMarks {
  /** It carries an Anthropic credential or header (`x-api-key`, `anthropic-*`, a `sk-ant-` bearer token). */
  anthropic: string | undefined;
  /** It carries an OpenAI header (`openai-*`) or an OpenAI project, service-account or admin key. */
  openai: string | undefined;
  /** It carries a bearer token of no recognisable provider (a gateway's token, a placeholder). */
  bearer: boolean;
  /** It carries another provider's credential (Google's, AWS's), which no upstream of this proxy may receive. */
  foreign: string | undefined;
}

/** OpenAI's current key prefixes: project, service-account and admin keys. */
const openaiKeyPrefix = /^(sk-proj-|sk-svcacct-|sk-admin-)/;

export function providerMarks(headers: IncomingHttpHeaders, query: URLSearchParams): ProviderMarks {
  const names = Object.keys(headers);
  const authorization = String(headers.authorization ?? '').trim();
  const token = /^bearer\s+(\S+)$/i.exec(authorization)?.[1];
  const anthropic =
    headers['x-api-key'] !== undefined
      ? 'the header x-api-key'
      : token?.startsWith('sk-ant-')
        ? 'an Anthropic key as bearer token'
        : names.find((name) => name.startsWith('anthropic-'));
  const openai =
    token !== undefined && openaiKeyPrefix.test(token)
      ? 'an OpenAI key as bearer token'
      : names.find((name) => name.startsWith('openai-'));
  const foreign =
    names.find((name) => name === 'x-goog-api-key' || name.startsWith('x-amz-')) ??
    (/^aws4-/i.test(authorization) ? 'an AWS signature' : undefined) ??
    (query.has('key') ? 'the query parameter key' : undefined);
  return { anthropic, openai, bearer: token !== undefined, foreign };
}

const providerName: Record<UpstreamProvider, string> = { anthropic: 'Anthropic', openai: 'OpenAI' };

function notForwarded(status: number, errorCode: string, message: string): HttpError {
  return new HttpError({ status, errorCode, message: `${message}; it was not forwarded` });
}

/**
 * Refuses a path that does not mean what it says: a backslash, an empty, `.` or `..` segment, or an encoded
 * slash, backslash or dot. Such a path could be read one way here and another upstream (or climb out of the
 * upstream's own path prefix), so it is never forwarded.
 */
export function refuseUnnormalPath(path: string): void {
  const segments = path.split('/').slice(1);
  const unnormal =
    path.includes('\\') ||
    /%(2e|2f|5c|00)/i.test(path) ||
    segments.some(
      (segment, index) =>
        segment === '.' || segment === '..' || (segment === '' && index < segments.length - 1),
    );
  if (unnormal) {
    throw notForwarded(400, 'path-not-normal', `the path "${path.slice(0, 80)}" is not in normal form`);
  }
}

/**
 * Where a request goes: the provider whose API the path belongs to, or for a path both APIs have, the one its
 * headers mark. Refused without forwarding: another provider's credential, a credential or header of the
 * provider the path does not belong to, marks of both providers, a path no configured upstream serves.
 */
export function routeRequest(
  path: string,
  headers: IncomingHttpHeaders,
  query: URLSearchParams,
  upstreams: Upstreams,
): ProxyRoute {
  refuseUnnormalPath(path);
  const marks = providerMarks(headers, query);
  if (marks.foreign !== undefined) {
    throw notForwarded(
      400,
      'foreign-credential',
      `the request carries ${marks.foreign}, a credential of a provider this proxy does not serve`,
    );
  }
  const trimmed = path.replace(/\/+$/, '');
  const family = pathFamily(trimmed);
  if (family === 'unknown') {
    throw notForwarded(404, 'unknown-path', `${trimmed} is not a path of the Anthropic or OpenAI API`);
  }
  const provider = family === 'shared' ? sharedPathProvider(trimmed, marks, upstreams) : family;
  const other: UpstreamProvider = provider === 'anthropic' ? 'openai' : 'anthropic';
  const mismatch = marks[other];
  if (mismatch !== undefined) {
    throw notForwarded(
      400,
      'credential-mismatch',
      `${trimmed} goes to the ${providerName[provider]} upstream, but the request carries ${mismatch} of ${providerName[other]}`,
    );
  }
  if (upstreams[provider] === undefined) {
    throw notForwarded(
      404,
      'no-upstream',
      `this proxy has no ${provider} upstream for ${trimmed} (see --upstream)`,
    );
  }
  return compactedPaths[trimmed] ?? { provider };
}

/**
 * The provider of a path both APIs have. Anthropic's SDK always sends `anthropic-version`, and its
 * credentials are marked; a request without either, carrying a bearer token or an OpenAI header, was written
 * for OpenAI. A request with neither provider's marks goes to the only upstream there is, or is refused.
 */
function sharedPathProvider(path: string, marks: ProviderMarks, upstreams: Upstreams): UpstreamProvider {
  if (marks.anthropic !== undefined && marks.openai !== undefined) {
    throw notForwarded(
      400,
      'ambiguous-route',
      `${path} is a path of both APIs, and the request carries ${marks.anthropic} and ${marks.openai}`,
    );
  }
  if (marks.anthropic !== undefined) return 'anthropic';
  if (marks.openai !== undefined || marks.bearer) return 'openai';
  const configured = (Object.keys(upstreams) as UpstreamProvider[]).filter(
    (name) => upstreams[name] !== undefined,
  );
  if (configured.length === 1) return configured[0]!;
  throw notForwarded(
    400,
    'ambiguous-route',
    `${path} is a path of both APIs, and nothing in the request says which (an x-api-key or anthropic-version header, or a bearer token)`,
  );
}

import { usageError } from '../errors/cli-error.js';

/** The providers the proxy speaks for. */
export type UpstreamProvider = 'anthropic' | 'openai';

/** Where the proxy forwards each provider's requests: the operator's choice alone. */
export type Upstreams = Partial<Record<UpstreamProvider, URL>>;

/** The providers' own addresses, for `--upstream anthropic` and `--upstream openai`. */
export const providerOrigins: Record<UpstreamProvider, string> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com',
};

const providers = Object.keys(providerOrigins) as UpstreamProvider[];

function upstreamUrl(text: string, flag: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usageError(`${flag}: "${text}" is neither anthropic, openai nor an http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw usageError(`${flag}: "${text}" must be an http or https URL`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw usageError(
      `${flag}: "${text}" must be an origin with an optional path, without query or credentials`,
    );
  }
  return url;
}

/**
 * Reads the `--upstream` values: `anthropic` or `openai` (the provider's own address), `anthropic=URL` or
 * `openai=URL` (another address for one provider), or a bare URL (one address for both, such as a gateway
 * that speaks both APIs). None at all means both providers' own addresses.
 */
export function parseUpstreams(values: readonly string[] | undefined): Upstreams {
  if (values === undefined || values.length === 0) {
    return { anthropic: new URL(providerOrigins.anthropic), openai: new URL(providerOrigins.openai) };
  }
  const upstreams: Upstreams = {};
  const set = (provider: UpstreamProvider, url: URL, value: string) => {
    if (upstreams[provider] !== undefined) {
      throw usageError(`--upstream: ${provider} is given twice (again in "${value}")`);
    }
    upstreams[provider] = url;
  };
  for (const value of values) {
    const named = /^(anthropic|openai)(?:=(.*))?$/.exec(value.trim());
    if (named !== null) {
      const provider = named[1] as UpstreamProvider;
      set(provider, upstreamUrl(named[2] ?? providerOrigins[provider], '--upstream'), value);
    } else {
      const url = upstreamUrl(value.trim(), '--upstream');
      for (const provider of providers) set(provider, url, value);
    }
  }
  return upstreams;
}

/** The request formats the proxy compacts, by path. */
export type ProxiedFormat = 'anthropic' | 'openai-chat' | 'openai-responses';

/** Where a request path goes, and in which format its conversation is, when it carries one to compact. */
export interface ProxyRoute {
  provider: UpstreamProvider;
  format?: ProxiedFormat;
}

/** The address a request goes to: the upstream's origin and path prefix, then the request's path and query. */
export function upstreamTarget(upstream: URL, pathAndQuery: string): URL {
  const prefix = upstream.pathname.replace(/\/+$/, '');
  return new URL(`${upstream.origin}${prefix}${pathAndQuery}`);
}

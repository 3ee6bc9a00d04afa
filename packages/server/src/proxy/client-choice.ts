import type { IncomingMessage } from 'node:http';
import { HttpError } from '../errors/http-error.js';

/** Headers a client could use to name another upstream; a proxy that honoured one would send its keys there. */
const upstreamHeaders = /^x-(compaction-)?(upstream|base-url|target-url|forward-to)(-url)?$/i;

/** Query parameters with the same intent. */
const upstreamParameters = /^(upstream|upstream_url|base_url|baseurl|target|target_url)$/i;

function refused(how: string): HttpError {
  return new HttpError({
    status: 400,
    errorCode: 'upstream-not-allowed',
    message:
      `the upstream is chosen by the proxy's operator (--upstream), never by a request: ${how}. ` +
      'Send the request to the proxy with a plain path such as /v1/messages.',
  });
}

/**
 * Refuses a request that tries to choose where the proxy forwards it: an absolute URL in the request line
 * (`GET http://elsewhere/v1/messages`), a header or a query parameter naming an upstream. The client's
 * credentials travel with its request, so only the operator's upstream may ever receive them.
 */
export function refuseClientUpstream(request: IncomingMessage): void {
  const target = request.url ?? '/';
  if (!target.startsWith('/') || target.startsWith('//')) {
    throw refused(`the request line names an address ("${target.slice(0, 80)}")`);
  }
  for (const name of Object.keys(request.headers)) {
    if (upstreamHeaders.test(name)) throw refused(`the header ${name} names one`);
  }
  const query = new URL(target, 'http://proxy.invalid').searchParams;
  for (const name of query.keys()) {
    if (upstreamParameters.test(name)) throw refused(`the query parameter "${name}" names one`);
  }
}

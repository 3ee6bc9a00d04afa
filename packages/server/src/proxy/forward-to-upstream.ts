import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../errors/http-error.js';
import { readClientBody } from './client-body.js';
import {
  conversationHeader,
  defaultUpstreamTimeoutMs,
  pipeResponse,
  sendUpstream,
} from './forward-request.js';
import { answerWithOverflowRetries } from './overflow-retries.js';
import type { ProxyParts } from './proxy-parts.js';
import { type PreparedRequest, prepareRequest } from './request-compaction.js';
import { routeRequest } from './route-request.js';
import { upstreamTarget } from './upstreams.js';

/**
 * Forwards one request to its upstream, its conversation compacted on the way when it crosses the trigger, and
 * passes the answer back; `url` is the request's path and query below the proxy's base path.
 */
export async function forwardToUpstream(
  parts: ProxyParts,
  request: IncomingMessage,
  response: ServerResponse,
  url: string,
): Promise<void> {
  const { options, counts, context, log } = parts;
  const { upstreams } = options;
  const path = url.split('?')[0] ?? '/';
  // Routed by the request's own marks, and refused before anything is read or sent when its credential
  // could reach a provider it was not meant for.
  const route = routeRequest(path, request.headers, new URLSearchParams(url.slice(path.length)), upstreams);
  const target = upstreamTarget(upstreams[route.provider] as URL, url);
  const method = request.method ?? 'GET';
  const { body: raw, headers, unreadEncoding } = await readClientBody(request, parts.maxBodyBytes);
  if (unreadEncoding !== undefined) {
    counts.unreadBodies++;
    log(
      `compaction proxy: a request body in the unknown encoding "${unreadEncoding}" was forwarded uncompacted`,
    );
  }
  const aborted = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) aborted.abort();
  });
  const upstreamTimeoutMs = options.upstreamTimeoutMs ?? defaultUpstreamTimeoutMs;
  const send = async (body: Buffer) => {
    const answer = await sendUpstream(target, method, headers, body, aborted.signal, upstreamTimeoutMs).catch(
      (error: unknown) => {
        options.observer?.upstreamAnswered('error');
        throw error;
      },
    );
    options.observer?.upstreamAnswered(answer.statusCode ?? 0);
    return answer;
  };
  let prepared: PreparedRequest = { body: raw };
  if (route.format !== undefined && method === 'POST' && unreadEncoding === undefined) {
    try {
      prepared = await prepareRequest(
        route.format,
        raw,
        request.headers[conversationHeader],
        context,
        route.provider,
      );
    } catch (error) {
      if (HttpError.isInstance(error)) throw error;
      // A compaction that fails leaves the request as the client sent it: the provider has the last word.
      log(`compaction proxy: compaction failed, request forwarded unchanged: ${(error as Error).message}`);
    }
  }
  counts.requests++;
  const answer = await send(prepared.body);
  if (
    route.format === undefined ||
    (prepared.conversation === undefined && prepared.readLater === undefined)
  ) {
    await pipeResponse(answer, response);
    return;
  }
  await answerWithOverflowRetries(answer, {
    format: route.format,
    prepared,
    context,
    response,
    send,
    retrying: () => counts.overflowRetries++,
    log,
  });
}

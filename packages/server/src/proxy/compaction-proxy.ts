import type { IncomingMessage, ServerResponse } from 'node:http';
import { CompactionError } from '@compaction/core';
import { usageError } from '../errors/cli-error.js';
import { HttpError } from '../errors/http-error.js';
import { sendError, sendJson } from '../serve/json-response.js';
import { refuseClientUpstream } from './client-choice.js';
import { answerForcedCompaction } from './forced-compaction-route.js';
import { forcedCompactionKey } from './forced-compactions.js';
import { forwardToUpstream } from './forward-to-upstream.js';
import { createProxyParts } from './proxy-parts.js';
import { type CompactionProxySettings, type ProxyStatus, statusPath } from './proxy-settings.js';

/**
 * The compacting proxy as a request handler: mount `handle` in any Node `http` server, as its whole handler
 * or for the paths under {@link CompactionProxySettings.basePath}.
 */
export interface CompactionProxy {
  /**
   * Answers one request: forwards it upstream, answers `GET /compaction/status`, or marks a conversation for
   * a forced compaction (`POST /compaction/conversations/{key}/compact`). Never throws.
   */
  handle(request: IncomingMessage, response: ServerResponse): void;
  /** The counts `GET /compaction/status` answers. */
  status(): ProxyStatus;
  /** Stops the retention sweep and the compaction threads; requests still running finish on the event loop. */
  close(): Promise<void>;
}

/**
 * The proxy of `compaction proxy`: Anthropic Messages, OpenAI Chat Completions and Responses requests are
 * forwarded to the operator's upstream, their conversation compacted on the way when it crosses the trigger,
 * and the responses, streams included, passed back as they arrive. Headers (API keys, beta flags) go through
 * and are neither logged nor kept. Resolves once the summarizer's provider is ready.
 */
export async function createCompactionProxy(options: CompactionProxySettings): Promise<CompactionProxy> {
  const basePath = normalizedBasePath(options.basePath);
  const parts = await createProxyParts(options);
  const { log } = parts;

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = pathBelow(basePath, request.url ?? '/');
    if (url === undefined) {
      throw new HttpError({
        status: 404,
        errorCode: 'not-found',
        message: `the proxy answers under ${basePath}`,
      });
    }
    refuseClientUpstream(request);
    if (url.split('?')[0] === statusPath) {
      if (request.method !== 'GET') {
        throw new HttpError({
          status: 405,
          errorCode: 'method-not-allowed',
          message: `use GET ${statusPath}`,
        });
      }
      sendJson(response, 200, parts.status());
      return;
    }
    const forcedKey = forcedCompactionKey(url.split('?')[0]!);
    if (forcedKey !== undefined) {
      await answerForcedCompaction(request, response, forcedKey, parts.forced);
      return;
    }
    await forwardToUpstream(parts, request, response, url);
  }

  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    answer(request, response).catch((error: unknown) => {
      // A client that went away needs no answer; the upstream request was cut with it.
      if (response.destroyed) return;
      if (HttpError.isInstance(error) || CompactionError.isInstance(error)) {
        sendError(request, response, error);
        return;
      }
      log(`compaction proxy: ${(error as Error)?.stack ?? String(error)}`);
      sendError(
        request,
        response,
        new HttpError({ status: 500, errorCode: 'internal-error', message: 'internal error' }),
      );
    });
  };
  return { handle, status: parts.status, close: parts.close };
}

/** The base path without its trailing slashes (`undefined` for none or `/`); one not starting with `/` is refused. */
function normalizedBasePath(basePath: string | undefined): string | undefined {
  if (basePath === undefined) return undefined;
  if (!basePath.startsWith('/')) throw usageError(`basePath must start with "/", got "${basePath}"`);
  const trimmed = basePath.replace(/\/+$/, '');
  return trimmed === '' ? undefined : trimmed;
}

/** A request's path and query below the base path, starting with `/`; `undefined` when it is outside. */
function pathBelow(basePath: string | undefined, url: string): string | undefined {
  if (basePath === undefined) return url;
  if (url !== basePath && !url.startsWith(`${basePath}/`) && !url.startsWith(`${basePath}?`))
    return undefined;
  const rest = url.slice(basePath.length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

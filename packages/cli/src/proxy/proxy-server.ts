import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  CompactionError,
  type CompactionEvent,
  type CompactionStore,
  createTokenCounter,
  type StrategyRegistry,
} from '@compaction/core';
import { stagesOf } from '../compaction-stages.js';
import type { CompactionSettings } from '../config/resolve-settings.js';
import { HttpError } from '../errors/http-error.js';
import { fastEstimator } from '../estimators.js';
import { contextWindowOf } from '../run-compaction.js';
import { CompactionLimiter } from '../serve/compaction-limiter.js';
import { sendError, sendJson } from '../serve/json-response.js';
import { ProviderPool } from '../serve/provider-pool.js';
import { createRequestPolicy } from '../serve/request-policy.js';
import type { RetentionSettings } from '../serve/retention-sweep.js';
import { serverDefaults } from '../serve/server-defaults.js';
import { createCompactionPool, defaultCompactionThreads } from '../workers/compaction-pool.js';
import { createThreadedCompactor } from '../workers/threaded-compactor.js';
import { defaultThreadedHistoryTokens, strategyThreads } from '../workers/threaded-strategy.js';
import { readClientBody } from './client-body.js';
import { refuseClientUpstream } from './client-choice.js';
import {
  conversationHeader,
  defaultUpstreamTimeoutMs,
  pipeResponse,
  sendUpstream,
} from './forward-request.js';
import { answerWithOverflowRetries } from './overflow-retries.js';
import { PrefixMemory } from './prefix-memory.js';
import { PrefixUse, type PrefixUseSummary } from './prefix-use.js';
import { RecentBodies } from './recent-bodies.js';
import { type PreparedRequest, prepareRequest, type RequestCompactionContext } from './request-compaction.js';
import { routeRequest } from './route-request.js';
import { type LearnedLimit, UpstreamLimits } from './upstream-limits.js';
import { type Upstreams, upstreamTarget } from './upstreams.js';

/** The path of the proxy's own status endpoint; every other path is forwarded. */
export const statusPath = '/compaction/status';

/** Settings of {@link createProxyServer}. */
export interface ProxyServerSettings {
  /** The operator's settings: the strategies, budget and summarizer every compaction runs with. */
  settings: CompactionSettings;
  registry: StrategyRegistry;
  /** Where requests go, by provider. */
  upstreams: Upstreams;
  /** Where compacted prefixes and compactions are kept; none keeps them in memory only. */
  store?: CompactionStore;
  /** Largest request body in bytes. Default 32 MiB. */
  maxBodyBytes?: number;
  /** Compactions running at once. Default 8. */
  maxConcurrent?: number;
  /** Compactions waiting for a slot; beyond, 503 with `Retry-After`. Default 64. */
  maxQueue?: number;
  /**
   * Worker threads that run the strategy of a large conversation's compaction off the event loop, so it does
   * not hold up the other requests; 0 compacts on the event loop. Default: one less than the cores
   * (`os.availableParallelism()`), at least 1 and at most `maxConcurrent`.
   */
  compactionThreads?: number;
  /** Smallest conversation, in tokens, whose strategy runs on a thread. Default 64,000. */
  threadedHistoryTokens?: number;
  /** Where the summarizer's API key is read (the operator's environment, never a request). */
  environment?: NodeJS.ProcessEnv;
  /** Where the line about each compaction goes. Default standard error. */
  log?: (line: string) => void;
  /** How long the upstream may stay silent (before its answer, and within a stream), in ms. Default 10 minutes. */
  upstreamTimeoutMs?: number;
  /** Conversations past this age or beyond this size are deleted from the store and memory (needs `store`). */
  retention?: RetentionSettings;
}

/** What `GET /compaction/status` answers. */
export interface ProxyStatus {
  uptimeSeconds: number;
  /** Requests forwarded upstream (a retry after an overflow counts once). */
  requests: number;
  /** Requests whose conversation was compacted on the way, overflow retries included. */
  compactions: number;
  /** Requests retried after the upstream answered a context overflow (each retry of one request counts). */
  overflowRetries: number;
  /** Requests whose body was in a content encoding the proxy cannot read, forwarded uncompacted. */
  unreadBodies: number;
  /** Conversations whose compacted prefix the proxy remembers in memory. */
  conversations: number;
  /** The limits upstream models stated in their overflow errors: every later request to them is held to it. */
  learnedLimits: LearnedLimit[];
  /** How many requests each compacted prefix served before the next compaction replaced it. */
  prefixRequests: PrefixUseSummary;
  upstreams: Record<string, string>;
}

/** The `node:http` server of `compaction proxy`. */
export interface ProxyServer extends Server {
  status(): ProxyStatus;
}

/** Default largest request body: 32 MiB (a full window of text with a few images). */
export const defaultProxyMaxBodyBytes = 32 * 1024 * 1024;

/** One line about a compaction, with no header, key or message text in it. */
export function compactionLine(key: string, event: CompactionEvent, served?: number): string {
  const stages = stagesOf(event).map((stage) => stage.name);
  const strategy = event.strategy === 'pipeline' ? `pipeline: ${stages.join(', ')}` : event.strategy;
  // A named conversation shows its own name; a hashed one, the first characters of its hash.
  const shown = key.startsWith('named:')
    ? key.slice('named:'.length)
    : key.slice(key.indexOf(':') + 1, key.indexOf(':') + 9);
  return (
    `compaction proxy: conversation ${shown}: ${event.tokensBefore} → ${event.tokensAfter} tokens ` +
    `(${strategy}; trigger ${event.trigger}` +
    (served === undefined ? ')' : `; the previous prefix served ${served} request${served === 1 ? '' : 's'})`)
  );
}

/**
 * The proxy of `compaction proxy`: Anthropic Messages, OpenAI Chat Completions and Responses requests are
 * forwarded to the operator's upstream, their conversation compacted on the way when it crosses the trigger,
 * and the responses, streams included, passed back as they arrive. Headers (API keys, beta flags) go through
 * and are neither logged nor kept.
 */
export async function createProxyServer(options: ProxyServerSettings): Promise<ProxyServer> {
  const { settings, registry, upstreams, store } = options;
  const maxBodyBytes = options.maxBodyBytes ?? defaultProxyMaxBodyBytes;
  const upstreamTimeoutMs = options.upstreamTimeoutMs ?? defaultUpstreamTimeoutMs;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  // The summarizer is the operator's provider, built from the operator's settings and environment only.
  const provider = await new ProviderPool(settings.provider, options.environment).get();
  const maxConcurrent = options.maxConcurrent ?? serverDefaults.maxConcurrent;
  // Started on the first large compaction. Each compaction passes its conversation's state to the thread
  // (the history, the round), so any thread can run any conversation's; the remembered prefixes, the store
  // and the counts stay here.
  const pool = createCompactionPool(options.compactionThreads ?? defaultCompactionThreads(maxConcurrent), {
    settings,
    policy: createRequestPolicy(settings.config, settings.provider),
    strategyNames: registry.names(),
    ...(options.environment === undefined ? {} : { environment: options.environment }),
    maxBodyBytes,
    idleMs: serverDefaults.sessionIdleMs,
  });
  const compactor = await createThreadedCompactor(
    settings.config,
    registry,
    provider,
    {
      budget: { ...settings.budget, contextWindow: contextWindowOf(settings, provider) },
      // The fast estimator, never anchored on a provider's usage: what the compaction threads count with.
      counter: createTokenCounter(fastEstimator()),
      ...(store === undefined ? {} : { store }),
    },
    pool === undefined
      ? undefined
      : strategyThreads(pool, options.threadedHistoryTokens ?? defaultThreadedHistoryTokens, (error) =>
          log(`compaction proxy: compacting on the event loop, not on threads: ${error.message}`),
        ),
  );
  const memory = new PrefixMemory(store);
  const retention = options.retention === undefined ? undefined : memory.keepWithin(options.retention, log);
  const limiter = new CompactionLimiter(maxConcurrent, options.maxQueue ?? serverDefaults.maxQueue);
  const startedAt = Date.now();
  const counts = { requests: 0, compactions: 0, overflowRetries: 0, unreadBodies: 0 };
  const limits = new UpstreamLimits();
  const prefixUse = new PrefixUse();
  const context: RequestCompactionContext = {
    compactor,
    memory,
    limits,
    prefixUse,
    flights: new Map(),
    // A trigger policy decides from more than the count: then every request is read whole.
    ...(settings.config.triggerPolicy === undefined
      ? { recentBodies: new RecentBodies(compactor.counter.estimator) }
      : {}),
    compacted(key, event, served) {
      counts.compactions++;
      log(compactionLine(key, event, served));
    },
    learned(limit) {
      log(
        `compaction proxy: the ${limit.upstream} upstream refused a request to ${limit.model || 'its model'} as too long: ` +
          `requests to it are held to ${limit.inputTokens} input tokens (its count; ours × ${limit.ratio.toFixed(2)})`,
      );
    },
    async inSlot<T>(operation: () => Promise<T>): Promise<T> {
      const ticket = limiter.admit();
      try {
        return await ticket.run(operation);
      } finally {
        ticket.release();
      }
    },
  };

  const status = (): ProxyStatus => ({
    uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
    ...counts,
    conversations: memory.size,
    learnedLimits: limits.list(),
    prefixRequests: prefixUse.summary(),
    upstreams: Object.fromEntries(Object.entries(upstreams).map(([name, url]) => [name, url.href])),
  });

  async function forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = request.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    // Routed by the request's own marks, and refused before anything is read or sent when its credential
    // could reach a provider it was not meant for.
    const route = routeRequest(path, request.headers, new URLSearchParams(url.slice(path.length)), upstreams);
    const target = upstreamTarget(upstreams[route.provider] as URL, url);
    const method = request.method ?? 'GET';
    const { body: raw, headers, unreadEncoding } = await readClientBody(request, maxBodyBytes);
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
    const send = (body: Buffer) =>
      sendUpstream(target, method, headers, body, aborted.signal, upstreamTimeoutMs);
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

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    refuseClientUpstream(request);
    const path = (request.url ?? '/').split('?')[0];
    if (path === statusPath) {
      if (request.method !== 'GET') {
        throw new HttpError({
          status: 405,
          errorCode: 'method-not-allowed',
          message: `use GET ${statusPath}`,
        });
      }
      sendJson(response, 200, status());
      return;
    }
    await forward(request, response);
  }

  // A slow client is held to serve's bounds: the request line and headers in 10 s, the whole body in 60 s.
  const timeouts = {
    headersTimeout: serverDefaults.headersTimeoutMs,
    requestTimeout: serverDefaults.requestTimeoutMs,
    connectionsCheckingInterval: 1000,
  };
  const server = createServer(timeouts, (request, response) => {
    handle(request, response).catch((error: unknown) => {
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
  }) as ProxyServer;
  server.status = status;
  server.on('close', () => {
    retention?.stop();
    pool
      ?.close()
      .catch((error: unknown) => log(`compaction proxy: could not stop the compaction threads: ${error}`));
  });
  return server;
}

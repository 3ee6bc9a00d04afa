import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { CompactionError, type Provider, type StrategyRegistry } from '@compaction/core';
import { mergeConfig } from '../config/merge-config.js';
import type { CompactionSettings } from '../config/resolve-settings.js';
import { CliError } from '../errors/cli-error.js';
import { badRequest, HttpError } from '../errors/http-error.js';
import { compactMessages, providerOf } from '../run-compaction.js';
import { CompactionSession, checkMessages } from './compaction-session.js';
import { readJsonBody } from './read-json-body.js';

/** Settings of {@link createCompactionServer}. */
export interface CompactionServerSettings {
  settings: CompactionSettings;
  registry: StrategyRegistry;
  /** Required bearer token; none means no authentication. */
  token?: string;
  /** Largest request body in bytes. Default 10 MiB. */
  maxBodyBytes?: number;
  /** Most sessions kept at once; creating more answers 429. Default 1,000. */
  maxSessions?: number;
  environment?: NodeJS.ProcessEnv;
}

/** Default largest request body: 10 MiB. */
export const defaultMaxBodyBytes = 10 * 1024 * 1024;

/**
 * The HTTP API of `compaction serve` on `node:http`: stateless compaction, sessions that compact as messages
 * arrive, and a server-sent-events stream of each session's compactions. Every answer is JSON; every error is
 * `{"error": {"code", "message"}}`.
 */
export function createCompactionServer(options: CompactionServerSettings): Server {
  const { registry } = options;
  const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes;
  const sessions = new Map<string, CompactionSession>();
  const streams = new Set<ServerResponse>();
  let providerPromise: Promise<Provider | undefined> | undefined;
  const providerFor = (settings: CompactionSettings) => {
    if (settings.provider === options.settings.provider) {
      providerPromise ??= providerOf(options.settings, options.environment);
      return providerPromise;
    }
    return providerOf(settings, options.environment);
  };

  const body = (request: IncomingMessage) => readJsonBody(request, maxBodyBytes);
  const objectBody = async (request: IncomingMessage): Promise<Record<string, unknown>> => {
    const value = (await body(request)) ?? {};
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw badRequest('invalid-request', 'the request body must be a JSON object');
    }
    return value as Record<string, unknown>;
  };
  const instructionsOf = (value: unknown) => {
    if (value !== undefined && typeof value !== 'string')
      throw badRequest('invalid-request', 'instructions must be a string');
    return value as string | undefined;
  };
  const sessionOf = (id: string) => {
    const session = sessions.get(id);
    if (session === undefined)
      throw new HttpError({ status: 404, errorCode: 'session-not-found', message: `no session "${id}"` });
    return session;
  };
  const describe = (session: CompactionSession) => ({
    id: session.id,
    createdAt: session.createdAt,
    messages: session.messages.length,
    tokens: session.tokens(),
    budget: session.budget(),
    compactions: session.compactions.length,
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const method = request.method ?? 'GET';
    authorize(request, options.token);
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const route = (expected: string) => {
      if (method !== expected) {
        throw new HttpError({
          status: 405,
          errorCode: 'method-not-allowed',
          message: `${method} is not allowed on ${path}`,
        });
      }
    };

    if (path === '/v1/health') {
      route('GET');
      return send(response, 200, { ok: true, sessions: sessions.size });
    }
    if (path === '/v1/compact') {
      route('POST');
      const input = await objectBody(request);
      const messages = checkMessages(input.messages);
      const settings = mergeConfig(options.settings, input.config, registry);
      const provider = await providerFor(settings);
      const report = await compactMessages(messages, {
        settings,
        registry,
        targetOfInput: true,
        ...(provider === undefined ? {} : { provider }),
        ...(instructionsOf(input.instructions) === undefined
          ? {}
          : { instructions: input.instructions as string }),
      });
      const { messages: compacted, event, ...rest } = report;
      return send(response, 200, {
        messages: compacted,
        report: { ...rest, ...(event === undefined ? {} : { event }) },
      });
    }
    if (path === '/v1/sessions') {
      route('POST');
      if (sessions.size >= (options.maxSessions ?? 1000)) {
        throw new HttpError({
          status: 429,
          errorCode: 'too-many-sessions',
          message: 'too many sessions; delete some first',
        });
      }
      const input = await objectBody(request);
      const messages = input.messages === undefined ? [] : checkMessages(input.messages);
      const settings = mergeConfig(options.settings, input.config, registry);
      const session = await CompactionSession.create(
        randomUUID(),
        settings,
        registry,
        await providerFor(settings),
      );
      sessions.set(session.id, session);
      const appended = messages.length > 0 ? await session.append(messages) : { compacted: false };
      return send(response, 201, { ...describe(session), compacted: appended.compacted });
    }
    const match = /^\/v1\/sessions\/([^/]+)(?:\/(messages|compact|compactions|events))?$/.exec(path);
    if (match !== null) {
      const session = sessionOf(decodeURIComponent(match[1]!));
      switch (match[2]) {
        case undefined:
          if (method === 'DELETE') {
            sessions.delete(session.id);
            response.writeHead(204).end();
            return;
          }
          route('GET');
          return send(response, 200, { ...describe(session), messageList: session.messages });
        case 'messages': {
          if (method === 'GET') return send(response, 200, { messages: session.messages });
          route('POST');
          const input = await objectBody(request);
          const result = await session.append(input.messages);
          return send(response, 200, {
            ...describe(session),
            compacted: result.compacted,
            ...(result.event ? { event: result.event } : {}),
          });
        }
        case 'compact': {
          route('POST');
          const input = await objectBody(request);
          const result = await session.compact(instructionsOf(input.instructions));
          return send(response, 200, {
            ...describe(session),
            compacted: result.compacted,
            ...(result.event === undefined ? {} : { event: result.event }),
            ...(result.skipped === undefined ? {} : { skipped: result.skipped }),
          });
        }
        case 'compactions':
          route('GET');
          return send(response, 200, { compactions: session.compactions });
        case 'events':
          route('GET');
          return openEventStream(session, request, response, streams);
      }
    }
    throw new HttpError({ status: 404, errorCode: 'not-found', message: `no route ${method} ${path}` });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => sendError(response, error));
  });
  // Event streams are long-lived: end them when the server stops listening, so close() can finish.
  server.on('close', () => {
    for (const stream of streams) stream.end();
  });
  return server;
}

function authorize(request: IncomingMessage, token: string | undefined): void {
  if (token === undefined) return;
  const header = request.headers.authorization ?? '';
  const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '');
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new HttpError({ status: 401, errorCode: 'unauthorized', message: 'missing or wrong bearer token' });
  }
}

function openEventStream(
  session: CompactionSession,
  request: IncomingMessage,
  response: ServerResponse,
  streams: Set<ServerResponse>,
): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  response.write(`: session ${session.id}\n\n`);
  streams.add(response);
  const unsubscribe = session.subscribe((event) => {
    response.write(
      `id: ${event.id}\nevent: session.compacted\ndata: ${JSON.stringify({ sessionId: session.id, event })}\n\n`,
    );
  });
  // A comment every 15 s keeps proxies from closing an idle stream.
  const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), 15_000);
  heartbeat.unref();
  const stop = () => {
    clearInterval(heartbeat);
    unsubscribe();
    streams.delete(response);
  };
  request.on('close', stop);
  response.on('close', stop);
}

function send(response: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

function sendError(response: ServerResponse, error: unknown): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  let status = 500;
  let code = 'internal-error';
  let message = 'internal error';
  if (HttpError.isInstance(error)) {
    status = error.status;
    code = error.errorCode;
    message = error.message;
  } else if (CliError.isInstance(error)) {
    status = 400;
    code = error.kind === 'input' ? 'invalid-messages' : 'invalid-config';
    message = error.message;
  } else if (CompactionError.isInstance(error)) {
    status = error.code === 'provider-error' ? 502 : error.code === 'budget-unreachable' ? 422 : 400;
    if (error.code === 'strategy-failed') status = 500;
    code = error.code;
    message = error.message;
  } else {
    process.stderr.write(`compaction serve: ${(error as Error)?.stack ?? String(error)}\n`);
  }
  const text = JSON.stringify({ error: { code, message } });
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...(status === 413 ? { connection: 'close' } : {}),
  });
  response.end(text);
}

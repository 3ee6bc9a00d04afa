import type { Message } from '@compaction/core';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../__fixtures__/temporary-directory.js';
import { createInstalledStrategyRegistry } from '../config/installed-strategies.js';
import { resolveSettings } from '../config/resolve-settings.js';
import { serveClient, waitFor } from '../serve/__fixtures__/serve-client.js';
import { type CompactionServer, listenCompactionServer } from '../serve/compaction-http-server.js';
import { receivedSpans } from './__fixtures__/otlp-spans.js';
import { scrapeMetrics } from './__fixtures__/scraped-metrics.js';
import type { RequestTracing } from './request-tracing.js';
import { startTracing } from './start-tracing.js';

// `compaction serve` observed: the metrics count exactly the requests made, by route template; the JSON log
// has a line per request and compaction; each request is a span continuing the caller's trace; and nothing a
// client sends as a secret (its API key, its Authorization header, its messages) reaches any of them.

const token = 'serve-token-planted-3f9a';
const apiKey = 'sk-ant-api03-planted-key-7c1d';
const marker = 'MARKER-planted-in-message-text-51e0';
const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
const callerSpan = '00f067aa0ba902b7';

const text = (role: 'user' | 'assistant', value: string): Message => ({
  role,
  content: [{ type: 'text', text: value }],
});
/** A conversation of `turns` long exchanges, the marker in its last request. */
const conversation = (turns: number): Message[] => [
  ...Array.from({ length: turns }, (_, index) => [
    text('user', `Step ${index}: read the next file. ${'word '.repeat(200)}`),
    text('assistant', `Read it. ${'detail '.repeat(200)}`),
  ]).flat(),
  text('user', `Now finish the task. ${marker}`),
];

let receiver: TestServer;
let tracing: RequestTracing;
let server: CompactionServer;
let url: string;
const lines: string[] = [];

beforeAll(async () => {
  receiver = await startTestServer();
  receiver.handle('/v1/traces', () => ({ status: 200, body: {} }));
  tracing = await startTracing({ url: `${receiver.url}/v1/traces`, serviceName: 'serve-under-test' });
  const registry = await createInstalledStrategyRegistry();
  const settings = resolveSettings(
    registry,
    { 'context-window': '8k', trigger: 'off', target: '0.1', strategy: 'sliding-window' },
    temporaryDirectory(),
  );
  ({ server, url } = await listenCompactionServer(
    {
      settings,
      registry,
      token,
      compactionThreads: 0,
      observability: { logFormat: 'json', log: (line) => lines.push(line), tracing },
    },
    { port: 0 },
  ));
});
afterAll(async () => {
  await server.shutdown(100);
  await tracing.shutdown();
  await receiver.close();
});

describe('compaction serve: metrics, logs and traces', () => {
  it('counts each request by route template, logs it as JSON, traces it, and leaks no secret', async () => {
    const client = serveClient(url, token);
    const secretHeaders = { 'x-api-key': apiKey };
    const created = await client('/v1/sessions', {
      method: 'POST',
      headers: {
        ...secretHeaders,
        'x-request-id': 'caller-request-1',
        traceparent: `00-${callerTrace}-${callerSpan}-01`,
      },
      json: { conversation: conversation(4) },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toBe('caller-request-1');
    const { id } = (await created.json()) as { id: string };
    const compacted = await client(`/v1/sessions/${id}/compact`, {
      method: 'POST',
      headers: secretHeaders,
      json: {},
    });
    expect(compacted.status).toBe(200);
    const compactRequestId = compacted.headers.get('x-request-id');
    for (let read = 0; read < 2; read++) expect((await client(`/v1/sessions/${id}`)).status).toBe(200);
    const missing = await client('/v1/no-such-route', { headers: { 'x-request-id': 'not a sane id' } });
    expect(missing.status).toBe(404);
    // An unfit id is replaced by a new one, never echoed.
    expect(missing.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    const session = (await (await client(`/v1/sessions/${id}`)).json()) as { compactions: number };
    expect(session.compactions).toBeGreaterThan(0);

    const metrics = await scrapeMetrics(url, { authorization: `Bearer ${token}` });
    const requests = 'compaction_http_requests_total';
    expect(metrics.total(requests, { method: 'POST', route: '/v1/sessions', status: '201' })).toBe(1);
    expect(
      metrics.total(requests, { method: 'POST', route: '/v1/sessions/{id}/compact', status: '200' }),
    ).toBe(1);
    expect(metrics.total(requests, { method: 'GET', route: '/v1/sessions/{id}', status: '200' })).toBe(3);
    expect(metrics.total(requests, { route: 'unmatched', status: '404' })).toBe(1);
    expect(metrics.total(requests, { route: '/metrics', status: '401' })).toBe(1);
    expect(metrics.total(requests)).toBe(7);
    expect(
      metrics.observations('compaction_http_request_duration_seconds', { route: '/v1/sessions/{id}' }),
    ).toBe(3);
    expect(
      metrics.total('compaction_compactions_total', { strategy: 'sliding-window', trigger: 'manual' }),
    ).toBe(session.compactions);
    expect(metrics.observations('compaction_tokens_saved')).toBe(session.compactions);
    expect(metrics.total('compaction_sessions')).toBe(1);
    expect(metrics.total('compaction_queue_length')).toBe(0);
    expect(metrics.total('compaction_store_errors_total')).toBe(0);
    // Route templates only: no session id, no header value.
    expect(metrics.labelValues().filter((value) => value.includes(id))).toEqual([]);

    // The scrape's own line is written once its answer has ended.
    await waitFor(() => lines.length >= 9, 'a log line for every request and the compaction');
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const requestEntries = entries.filter((entry) => entry.event === 'request');
    expect(requestEntries).toHaveLength(8);
    expect(requestEntries[0]).toMatchObject({
      level: 'info',
      requestId: 'caller-request-1',
      method: 'POST',
      route: '/v1/sessions',
      status: '201',
    });
    expect(requestEntries[1]).toMatchObject({ route: '/v1/sessions/{id}/compact', sessionId: id });
    const compactionEntries = entries.filter((entry) => entry.event === 'compaction');
    expect(compactionEntries).toHaveLength(session.compactions);
    expect(compactionEntries[0]).toMatchObject({
      requestId: compactRequestId,
      sessionId: id,
      strategy: 'sliding-window',
      trigger: 'manual',
      outcome: 'compacted',
    });
    expect(compactionEntries[0]!.tokensAfter).toBeLessThan(compactionEntries[0]!.tokensBefore as number);

    await tracing.flush();
    const spans = receivedSpans(receiver.requests);
    const createSpan = spans.find((span) => span.name === 'POST /v1/sessions');
    expect(createSpan).toMatchObject({
      traceId: callerTrace,
      parentSpanId: callerSpan,
      serviceName: 'serve-under-test',
      attributes: { 'http.route': '/v1/sessions', 'http.response.status_code': 201 },
    });
    const compactSpan = spans.find((span) => span.name === 'POST /v1/sessions/{id}/compact');
    // The Compactor's own spans (`@compaction/opentelemetry`) are children of the request's.
    const compaction = spans.find((span) => span.name === 'compaction.compact');
    expect(compaction).toMatchObject({ traceId: compactSpan?.traceId, parentSpanId: compactSpan?.spanId });
    expect(compaction?.attributes['compaction.session.id']).toBe(id);

    for (const secret of [apiKey, token, marker]) {
      expect(metrics.text).not.toContain(secret);
      expect(lines.join('\n')).not.toContain(secret);
      expect(receiver.requests.map((request) => request.rawBody).join('\n')).not.toContain(secret);
    }
  });

  it('answers /metrics with 404 when metrics are off, and still sets request ids', async () => {
    const registry = await createInstalledStrategyRegistry();
    const settings = resolveSettings(registry, {}, temporaryDirectory());
    const off = await listenCompactionServer(
      { settings, registry, compactionThreads: 0, observability: { metrics: false, log: () => undefined } },
      { port: 0 },
    );
    try {
      const answer = await fetch(`${off.url}/metrics`);
      expect(answer.status).toBe(404);
      expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await off.server.shutdown(100);
    }
  });
});

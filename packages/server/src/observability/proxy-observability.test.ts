import Anthropic from '@anthropic-ai/sdk';
import { createStrategyRegistry, defineStrategy } from '@compaction/core';
import { metricNames } from '@compaction/opentelemetry';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../__fixtures__/temporary-directory.js';
import { createInstalledStrategyRegistry, proxyStrategyDefaults } from '../config/installed-strategies.js';
import { resolveSettings } from '../config/resolve-settings.js';
import { answerWithToolCalls, runAgent, tools } from '../proxy/__fixtures__/coding-agent.js';
import { anthropicWithLimit } from '../proxy/__fixtures__/limited-upstream.js';
import { listenCompactionProxy, type ProxyServer } from '../proxy/proxy-server.js';
import type { CompactionProxySettings } from '../proxy/proxy-settings.js';
import { parseUpstreams } from '../proxy/upstreams.js';
import { waitFor } from '../serve/__fixtures__/serve-client.js';
import { receivedPoints } from './__fixtures__/otlp-metrics.js';
import { receivedSpans } from './__fixtures__/otlp-spans.js';
import { scrapeMetrics } from './__fixtures__/scraped-metrics.js';
import type { RequestTracing } from './request-tracing.js';
import { startTracing } from './start-tracing.js';

// `compaction proxy` observed: an agent's request refused as too long upstream, compacted and retried, shows in
// the metrics (upstream answers by status, the overflow retry, the compaction), in the JSON log and as a span
// continuing the agent's trace; the agent's API key, its bearer token and its messages show in none of them.

const apiKey = 'sk-ant-api03-planted-proxy-key-91b2';
const bearer = 'sk-ant-oat01-planted-bearer-44d7';
const marker = 'MARKER-planted-in-proxy-message-0c3e';
const callerTrace = '0af7651916cd43dd8448eb211c80319c';
const callerSpan = 'b7ad6b7169203331';

let upstream: TestServer;
let receiver: TestServer;
const closers: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  upstream = await startTestServer();
  receiver = await startTestServer();
  receiver.handle('/v1/traces', () => ({ status: 200, body: {} }));
  receiver.handle('/v1/metrics', () => ({ status: 200, body: {} }));
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  upstream.reset();
});
afterAll(async () => {
  await upstream.close();
  await receiver.close();
});

/** A strategy that always throws: every compaction of a proxy using it fails. */
const brokenDefinition = defineStrategy<Record<string, never>>({
  specificationVersion: 'v1',
  name: 'broken',
  description: 'Fails every compaction.',
  optionsSchema: { type: 'object', properties: {} },
  create: () => ({
    specificationVersion: 'v1',
    name: 'broken',
    compact: async () => {
      throw new Error('the broken strategy failed');
    },
  }),
});

async function startProxy(
  observability: CompactionProxySettings['observability'],
  broken?: { contextWindow: string },
) {
  const registry =
    broken === undefined
      ? await createInstalledStrategyRegistry()
      : createStrategyRegistry({ loadPackage: false, definitions: [brokenDefinition] });
  const settings =
    broken === undefined
      ? resolveSettings(
          registry,
          { 'context-window': '200k' },
          temporaryDirectory(),
          proxyStrategyDefaults(registry),
        )
      : resolveSettings(
          registry,
          { 'context-window': broken.contextWindow, strategy: 'broken' },
          temporaryDirectory(),
        );
  const { server, url } = await listenCompactionProxy(
    {
      settings,
      registry,
      upstreams: parseUpstreams([upstream.url]),
      environment: {},
      compactionThreads: 0,
      observability,
    },
    { port: 0 },
  );
  closers.push(() => closeServer(server));
  return url;
}

const closeServer = (server: ProxyServer) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

describe('compaction proxy: metrics, logs and traces', () => {
  it('counts an overflow retry and its compaction, logs them as JSON, traces them, and leaks no secret', async () => {
    const lines: string[] = [];
    const tracing: RequestTracing = await startTracing({
      url: `${receiver.url}/v1/traces`,
      metricsUrl: `${receiver.url}/v1/metrics`,
      metricIntervalMs: 100,
      serviceName: 'proxy-under-test',
    });
    closers.push(() => tracing.shutdown());
    const url = await startProxy({ logFormat: 'json', log: (line) => lines.push(line), tracing });

    upstream.handle('/v1/messages', answerWithToolCalls(upstream));
    const direct = new Anthropic({ apiKey: 'client-key', baseURL: upstream.url, maxRetries: 0 });
    const { history } = await runAgent(direct, 16, {
      history: [{ role: 'user', content: `Find where compute() is defined. ${marker}` }],
    });
    upstream.reset();
    const request = {
      model: 'claude-sonnet-5-5',
      max_tokens: 1024,
      system: 'Be careful.',
      tools,
      messages: history,
    };
    // The upstream refuses anything over half of this request (its own count), once; the retry fits.
    const limit = Math.floor(Buffer.byteLength(JSON.stringify(request)) / 3.5 / 2);
    upstream.handle('/v1/messages', anthropicWithLimit(upstream, limit));
    upstream.handle('/v1/models', () => ({ body: { data: [] } }));
    const secretHeaders = {
      'x-api-key': apiKey,
      authorization: `Bearer ${bearer}`,
      'anthropic-version': '2023-06-01',
    };
    const answer = await fetch(`${url}/v1/messages`, {
      method: 'POST',
      headers: {
        ...secretHeaders,
        'content-type': 'application/json',
        'x-request-id': 'agent-request-7',
        traceparent: `00-${callerTrace}-${callerSpan}-01`,
      },
      body: JSON.stringify(request),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-request-id')).toBe('agent-request-7');
    await answer.arrayBuffer();
    expect(upstream.requests).toHaveLength(2);
    expect((await fetch(`${url}/v1/models`, { headers: { 'x-api-key': apiKey } })).status).toBe(200);
    expect((await fetch(`${url}/compaction/status`)).status).toBe(200);

    const metrics = await scrapeMetrics(url);
    const requests = 'compaction_http_requests_total';
    expect(metrics.total(requests, { method: 'POST', route: '/v1/messages', status: '200' })).toBe(1);
    expect(metrics.total(requests, { method: 'GET', route: 'forwarded', status: '200' })).toBe(1);
    expect(metrics.total(requests, { method: 'GET', route: '/compaction/status', status: '200' })).toBe(1);
    expect(metrics.total(requests)).toBe(3);
    expect(metrics.total('compaction_proxy_upstream_requests_total', { status: '400' })).toBe(1);
    expect(metrics.total('compaction_proxy_upstream_requests_total', { status: '200' })).toBe(2);
    expect(metrics.total('compaction_proxy_overflow_retries_total')).toBe(1);
    const compactions = metrics.total('compaction_compactions_total', { trigger: 'overflow' });
    expect(compactions).toBeGreaterThanOrEqual(1);
    expect(metrics.total('compaction_compactions_total')).toBe(compactions);
    expect(metrics.observations('compaction_tokens_saved')).toBe(compactions);
    expect(metrics.total('compaction_sessions')).toBe(1);

    await waitFor(() => lines.length >= 4 + compactions, 'a log line for every request and compaction');
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.filter((entry) => entry.event === 'compaction')).toEqual(
      Array.from({ length: compactions }, () =>
        expect.objectContaining({ requestId: 'agent-request-7', route: '/v1/messages', trigger: 'overflow' }),
      ),
    );
    expect(entries.find((entry) => entry.event === 'request')).toMatchObject({
      requestId: 'agent-request-7',
      method: 'POST',
      route: '/v1/messages',
      status: '200',
    });

    // The Compactor's metrics, sent over OTLP every 100 ms: counted as cumulative sums, so the newest export.
    const exported = () =>
      receiver.requests
        .filter((each) => each.path === '/v1/metrics')
        .map(receivedPoints)
        .filter((points) => points.some((point) => point.name === metricNames.compactions))
        .at(-1);
    await waitFor(() => exported() !== undefined, 'an OTLP export of the compactions metric');
    const points = exported() ?? [];
    expect(points.filter((point) => point.name === metricNames.compactions)).toEqual([
      expect.objectContaining({
        value: compactions,
        serviceName: 'proxy-under-test',
        attributes: expect.objectContaining({
          'compaction.trigger': 'overflow',
          'compaction.outcome': 'compacted',
        }),
      }),
    ]);
    expect(points.find((point) => point.name === metricNames.overflowRetries)?.value).toBe(1);

    await tracing.flush();
    const spans = receivedSpans(receiver.requests.filter((each) => each.path === '/v1/traces'));
    const span = spans.find((each) => each.name === 'POST /v1/messages');
    expect(span).toMatchObject({
      traceId: callerTrace,
      parentSpanId: callerSpan,
      serviceName: 'proxy-under-test',
      attributes: { 'http.route': '/v1/messages', 'http.response.status_code': 200 },
    });
    // The Compactor's own spans (`@compaction/opentelemetry`) are children of the request's.
    const compactionSpans = spans.filter((each) => each.name === 'compaction.compact');
    expect(compactionSpans).toHaveLength(compactions);
    for (const compaction of compactionSpans) {
      expect(compaction).toMatchObject({
        traceId: callerTrace,
        parentSpanId: span?.spanId,
        attributes: { 'compaction.trigger': 'overflow', 'compaction.compacted': true },
      });
    }
    expect(spans.filter((each) => each.name === 'compaction.strategy').length).toBeGreaterThanOrEqual(
      compactions,
    );

    for (const secret of [apiKey, bearer, marker]) {
      expect(metrics.text).not.toContain(secret);
      expect(lines.join('\n')).not.toContain(secret);
      expect(receiver.requests.map((each) => each.rawBody).join('\n')).not.toContain(secret);
    }
  });

  it('counts a compaction that fails as failed, logs it, and forwards the request unchanged', async () => {
    const lines: string[] = [];
    const url = await startProxy(
      { logFormat: 'json', log: (line) => lines.push(line) },
      { contextWindow: '4k' },
    );
    upstream.handle('/v1/messages', answerWithToolCalls(upstream));
    const direct = new Anthropic({ apiKey: 'client-key', baseURL: upstream.url, maxRetries: 0 });
    const { history } = await runAgent(direct, 16, {
      history: [{ role: 'user', content: 'Find where compute() is defined.' }],
    });
    upstream.reset();
    upstream.handle('/v1/messages', answerWithToolCalls(upstream));
    const body = JSON.stringify({ model: 'claude-sonnet-5-5', max_tokens: 1024, tools, messages: history });
    const answer = await fetch(`${url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body,
    });
    expect(answer.status).toBe(200);
    await answer.arrayBuffer();
    // Sent on as the client sent it.
    expect(upstream.requests.map((request) => request.rawBody)).toEqual([body]);

    const metrics = await scrapeMetrics(url);
    expect(metrics.total('compaction_compactions_total', { outcome: 'failed' })).toBe(1);
    expect(metrics.total('compaction_compactions_total', { strategy: 'broken', trigger: 'auto' })).toBe(1);
    expect(metrics.total('compaction_compactions_total')).toBe(1);
    expect(metrics.observations('compaction_tokens_saved')).toBe(0);
    await waitFor(
      () => lines.some((line) => line.includes('"event":"request"')),
      'the log line of the request',
    );
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.filter((entry) => entry.event === 'compaction')).toEqual([
      expect.objectContaining({
        level: 'error',
        route: '/v1/messages',
        outcome: 'failed',
        strategy: 'broken',
      }),
    ]);
    expect(entries.some((entry) => String(entry.message).includes('compaction failed'))).toBe(true);
  });

  it('answers /metrics with 404 when metrics are off, without forwarding it', async () => {
    const url = await startProxy({ metrics: false, log: () => undefined });
    const answer = await fetch(`${url}/metrics`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(upstream.requests).toEqual([]);
  });
});

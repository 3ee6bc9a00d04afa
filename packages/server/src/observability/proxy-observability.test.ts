import Anthropic from '@anthropic-ai/sdk';
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
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  upstream.reset();
});
afterAll(async () => {
  await upstream.close();
  await receiver.close();
});

async function startProxy(observability: CompactionProxySettings['observability']) {
  const registry = await createInstalledStrategyRegistry();
  const settings = resolveSettings(
    registry,
    { 'context-window': '200k' },
    temporaryDirectory(),
    proxyStrategyDefaults(registry),
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

    await tracing.flush();
    const span = receivedSpans(receiver.requests).find((each) => each.name === 'POST /v1/messages');
    expect(span).toMatchObject({
      traceId: callerTrace,
      parentSpanId: callerSpan,
      serviceName: 'proxy-under-test',
      attributes: { 'http.route': '/v1/messages', 'http.response.status_code': 200 },
    });

    for (const secret of [apiKey, bearer, marker]) {
      expect(metrics.text).not.toContain(secret);
      expect(lines.join('\n')).not.toContain(secret);
      expect(receiver.requests.map((each) => each.rawBody).join('\n')).not.toContain(secret);
    }
  });

  it('answers /metrics with 404 when metrics are off, without forwarding it', async () => {
    const url = await startProxy({ metrics: false, log: () => undefined });
    const answer = await fetch(`${url}/metrics`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(upstream.requests).toEqual([]);
  });
});

import { openApiDocument } from '@compaction/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, schemaProblems } from '../../../server/src/serve/__fixtures__/openapi-check.js';
import { serveClient } from '../../../server/src/serve/__fixtures__/serve-client.js';
import { steadyAnswer } from '../../../server/src/serve/__fixtures__/steady-answer.js';
import { compactExamples, sessionExamples } from '../../../server/src/serve/openapi-examples.js';
import type { LooseJson } from '../__fixtures__/run-binary.js';
import { type RunningServer, startServer } from '../__fixtures__/start-server.js';

// End to end through the built binary: the OpenAPI document against the server that serves it. Every
// documented operation answers, no other method does, and the examples' requests get the examples' answers,
// each valid against the documented schema of its status.

let probed: RunningServer;
let fresh: RunningServer;
beforeAll(async () => {
  [probed, fresh] = await Promise.all([startServer(), startServer()]);
});
afterAll(async () => {
  expect(await Promise.all([probed.stop(), fresh.stop()])).toEqual([0, 0]);
});

/** Sends a request and checks the answer against the document: a documented status, a valid body. */
async function exchange(
  server: RunningServer,
  method: string,
  template: string,
  path: string,
  body?: unknown,
) {
  const response = await serveClient(server.url)(path, {
    method,
    ...(body === undefined ? {} : { json: body }),
  });
  const operation = operations().find((entry) => entry.method === method && entry.path === template)!;
  const documented = operation.responses[String(response.status)];
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream')) {
    await response.body?.cancel();
    return { status: response.status, body: undefined as LooseJson, documented };
  }
  const text = await response.text();
  const parsed = text === '' ? undefined : (JSON.parse(text) as LooseJson);
  expect(documented, `${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`).toBeDefined();
  if (documented?.json?.schema !== undefined) {
    expect(schemaProblems(documented.json.schema, parsed), `${method} ${path} ${response.status}`).toEqual(
      [],
    );
  }
  return { status: response.status, body: parsed, documented };
}

describe('compaction serve: the OpenAPI document', () => {
  it('is served at GET /openapi.json', async () => {
    const response = await serveClient(probed.url)('/openapi.json');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument)));
  });

  it('answers every documented operation, and 405 for every other method of its paths', async () => {
    const call = serveClient(probed.url);
    const session = (await (await call('/v1/sessions', { method: 'POST', json: {} })).json()) as LooseJson;
    const documented = new Set(operations().map(({ method, path }) => `${method} ${path}`));
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
    const probes = Object.keys(openApiDocument.paths).flatMap((template) =>
      methods.map((method) => ({
        method,
        template,
        path: template.replace('{id}', session.id).replace('{handle}', 'k3j9x0a2m1q'),
      })),
    );
    // Deleting comes last, so the other operations still find the session.
    probes.sort((first, second) => Number(first.method === 'DELETE') - Number(second.method === 'DELETE'));
    for (const { method, template, path } of probes) {
      if (documented.has(`${method} ${template}`)) {
        const operation = operations().find((entry) => entry.method === method && entry.path === template)!;
        const body = Object.values(operation.requestBody?.examples ?? {})[0];
        const { status, body: answer } = await exchange(probed, method, template, path, body);
        expect(status, `${method} ${path}`).not.toBe(405);
        // The new session archived nothing: its archive answers the documented 404, any other route finds it.
        if (template.endsWith('{handle}')) expect(answer.error.code).toBe('archive-not-found');
        else expect(status, `${method} ${path}`).not.toBe(404);
      } else {
        const response = await call(path, { method });
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(((await response.json()) as LooseJson).error.code).toBe('method-not-allowed');
      }
    }
    const unknown = await call('/v1/sessions/x/unknown');
    expect(unknown.status).toBe(404);
  });

  it('answers the examples of POST /v1/compact as documented', async () => {
    for (const [format, { request, answer }] of Object.entries(compactExamples)) {
      const { status, body } = await exchange(fresh, 'POST', '/v1/compact', '/v1/compact', request);
      expect(status, format).toBe(200);
      expect(steadyAnswer(body), format).toEqual(steadyAnswer(answer));
    }
  });

  it('answers the session examples as documented, step by step', async () => {
    const created = await exchange(
      fresh,
      'POST',
      '/v1/sessions',
      '/v1/sessions',
      sessionExamples.create.request,
    );
    expect(created.status).toBe(201);
    expect(steadyAnswer(created.body)).toEqual(steadyAnswer(sessionExamples.create.answer));
    const template = '/v1/sessions/{id}';
    const path = `/v1/sessions/${created.body.id}`;
    const steps = [
      ['POST', '/messages', sessionExamples.appendCall],
      ['POST', '/messages', sessionExamples.appendResult],
      ['POST', '/compact', sessionExamples.compact],
      ['GET', '', sessionExamples.read],
      ['GET', '/compactions', sessionExamples.compactions],
    ] as const;
    for (const [method, suffix, example] of steps) {
      const request = 'request' in example ? example.request : undefined;
      const { status, body } = await exchange(
        fresh,
        method,
        `${template}${suffix}`,
        `${path}${suffix}`,
        request,
      );
      expect(status, `${method} ${suffix}`).toBe(200);
      expect(steadyAnswer(body), `${method} ${suffix}`).toEqual(steadyAnswer(example.answer));
    }
    const listed = await exchange(fresh, 'GET', '/v1/sessions', '/v1/sessions');
    expect(steadyAnswer(listed.body)).toEqual(steadyAnswer(sessionExamples.list.answer));
    const health = await exchange(fresh, 'GET', '/v1/health', '/v1/health');
    expect(health.body).toEqual(sessionExamples.health.answer);
  });

  it('documents the errors it answers', async () => {
    const cases: Array<[string, string, unknown]> = [
      ['POST', '/v1/compact', { conversation: [{ role: 'robot', content: [] }] }],
      ['POST', '/v1/compact', { conversation: [], config: { provider: { baseURL: 'http://elsewhere' } } }],
      ['POST', '/v1/sessions', { conversation: [], format: 'claude-code' }],
    ];
    for (const [method, path, body] of cases) {
      const { status, documented } = await exchange(fresh, method, path, path, body);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(documented?.json?.schema).toEqual({ $ref: '#/components/schemas/Error' });
    }
    const missing = await exchange(fresh, 'GET', '/v1/sessions/{id}', '/v1/sessions/none');
    expect(missing.status).toBe(404);
  });
});

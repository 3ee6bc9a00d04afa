import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveClient } from '../../../server/src/serve/__fixtures__/serve-client.js';
import { runBinary, temporaryFile } from '../__fixtures__/run-binary.js';
import { type RunningServer, startServer } from '../__fixtures__/start-server.js';

// A Responses request that continues context the API stores (`previous_response_id`, or a `conversation` its
// items are added to) holds only the new items; the model also sees the stored history, which is not in the
// file. Compacting the new items alone would count the wrong thing and leave out items the model never saw
// (with `conversation`, never to be stored). `compact` and `serve` leave such a request as it is, and say why.

const output = (step: number) =>
  Array.from(
    { length: 40 },
    (_, line) => `step ${step} line ${line}: value = compute(${step}, ${line})`,
  ).join('\n');

function request(continuation: Record<string, unknown>): Record<string, unknown> {
  const input: unknown[] = [{ role: 'user', content: 'Fix the failing test in src/app.ts' }];
  for (let step = 0; step < 12; step++) {
    input.push(
      {
        type: 'function_call',
        call_id: `call_${step}`,
        name: 'bash',
        arguments: `{"command":"cat f${step}"}`,
      },
      { type: 'function_call_output', call_id: `call_${step}`, output: output(step) },
    );
  }
  input.push({ role: 'user', content: 'Now run the tests.' });
  return { model: 'gpt-5', input, ...continuation };
}

const continuations = [
  ['previous_response_id', { previous_response_id: 'resp_0a1b2c' }],
  ['conversation', { conversation: 'conv_6f2a9d' }],
  ['conversation', { conversation: { id: 'conv_6f2a9d' } }],
] as const;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(['--store', 'memory']);
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

describe('compact and serve on a Responses request that continues stored context', () => {
  it.each(continuations)(
    'compact leaves a request with %s as it is, and says why',
    async (field, continuation) => {
      const text = `${JSON.stringify(request(continuation), null, 2)}\n`;
      const path = temporaryFile('request.json', text);
      const run = await runBinary(['compact', path, '--target', '500']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(text);
      expect(run.stderr).toContain(`Nothing compacted`);
      expect(run.stderr).toContain(field);

      const json = await runBinary(['compact', path, '--target', '500', '--json', '-o', `${path}.out`]);
      expect(JSON.parse(json.stdout)).toMatchObject({ compacted: false, skipped: 'stored-context' });
      expect(readFileSync(`${path}.out`, 'utf8')).toBe(text);
    },
  );

  it.each(continuations)('serve answers a request with %s unchanged', async (_field, continuation) => {
    const conversation = request(continuation);
    const response = await serveClient(server.url)('/v1/compact', {
      method: 'POST',
      json: { conversation, config: { budget: { target: 500 } } },
    });
    const body = (await response.json()) as { conversation: unknown; report: { skipped?: string } };
    expect(response.status).toBe(200);
    expect(body.conversation).toEqual(conversation);
    expect(body.report).toMatchObject({ compacted: false, skipped: 'stored-context' });
  });

  it.each(continuations)(
    'serve refuses to start a session from a request with %s',
    async (field, continuation) => {
      const response = await serveClient(server.url)('/v1/sessions', {
        method: 'POST',
        json: { conversation: request(continuation) },
      });
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(response.status).toBe(400);
      expect(body.error.code).toBe('stored-context');
      expect(body.error.message).toContain(field);
    },
  );

  it('still compacts the same request when it carries the whole context', async () => {
    const path = temporaryFile('request.json', JSON.stringify(request({})));
    const run = await runBinary(['compact', path, '--target', '500', '--json']);
    expect(JSON.parse(run.stdout)).toMatchObject({ compacted: true });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveClient } from '../../../server/src/serve/__fixtures__/serve-client.js';
import { type LooseJson, runBinary } from '../__fixtures__/run-binary.js';
import { type RunningServer, startServer } from '../__fixtures__/start-server.js';

// End to end through the built binary: what `compaction serve` refuses at start and in requests, and how.

describe('compaction serve: an empty or blank token', () => {
  const cases: Array<[string, string[], NodeJS.ProcessEnv, RegExp]> = [
    ['--token ""', ['--token', ''], {}, /--token is empty/],
    ['--token=""', ['--token='], {}, /--token is empty/],
    ['--token " "', ['--token', ' \t'], {}, /--token is blank/],
    [
      'an empty --token over a good variable',
      ['--token', ''],
      { COMPACTION_TOKEN: 'secret' },
      /--token is empty/,
    ],
    ['an empty COMPACTION_TOKEN', [], { COMPACTION_TOKEN: '' }, /COMPACTION_TOKEN variable is empty/],
    ['a blank COMPACTION_TOKEN', [], { COMPACTION_TOKEN: '  ' }, /COMPACTION_TOKEN variable is blank/],
    ['a token with spaces around it', ['--token', ' secret '], {}, /--token begins or ends with whitespace/],
  ];
  for (const [name, args, env, message] of cases) {
    it(`refuses to start with ${name}`, async () => {
      const result = await runBinary(['serve', '--port', '0', '--store', 'memory', ...args], { env });
      expect(result.stderr).not.toMatch(/listening/);
      expect(result.stderr).toMatch(message);
      // A usage error, exit 1 like every other bad flag (2 is for unreadable input).
      expect(result.code).toBe(1);
    });
  }
});

describe('compaction serve: request checks', () => {
  const token = 'request-checks-token';
  let server: RunningServer;
  let call: ReturnType<typeof serveClient>;
  beforeAll(async () => {
    server = await startServer(['--token', token]);
    call = serveClient(server.url, token);
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  it('answers 401 with WWW-Authenticate: Bearer', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 'Bearer ' }] as Array<
      Record<string, string>
    >) {
      const response = await fetch(`${server.url}/v1/health`, { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('refuses a body that is not UTF-8 with 400 invalid-utf8, instead of replacing its bytes', async () => {
    const prefix = Buffer.from('{"conversation": [{"role": "user", "content": [{"type": "text", "text": "');
    const suffix = Buffer.from('"}]}]}');
    for (const bytes of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xc0, 0xaf]]) {
      const body = Buffer.concat([prefix, Buffer.from(bytes), suffix]);
      for (const path of ['/v1/compact', '/v1/sessions']) {
        const response = await call(path, { method: 'POST', body });
        expect(response.status, `${path} ${bytes}`).toBe(400);
        expect(((await response.json()) as LooseJson).error.code).toBe('invalid-utf8');
      }
    }
    const valid = Buffer.concat([prefix, Buffer.from('café ☕ 𝄞'), suffix]);
    const response = await call('/v1/sessions', { method: 'POST', body: valid });
    expect(response.status).toBe(201);
    expect(((await response.json()) as LooseJson).conversation[0].content[0].text).toBe('café ☕ 𝄞');
  });

  it('takes query integers only as plain decimal digits', async () => {
    for (const limit of ['0x10', '1e1', '+5', ' 5', '5.0', '0b1', '1_0', '', '0', '1001']) {
      const response = await call(`/v1/sessions?limit=${encodeURIComponent(limit)}`);
      expect(response.status, limit).toBe(400);
      expect(((await response.json()) as LooseJson).error.code, limit).toBe('invalid-request');
    }
    expect((await call('/v1/sessions?limit=16')).status).toBe(200);
    expect((await call('/v1/sessions?limit=007')).status).toBe(200);
  });

  it('answers 404 with a stable code for ids that name nothing, never reaching the store', async () => {
    const created = (await (await call('/v1/sessions', { method: 'POST', json: {} })).json()) as LooseJson;
    for (const id of ['a%00b', '%00', 'x%0Ay', "x'%20OR%201=1", 'x'.repeat(129)]) {
      for (const suffix of ['', '/compactions', '/events']) {
        const response = await call(`/v1/sessions/${id}${suffix}`);
        expect(response.status, `${id}${suffix}`).toBe(404);
        expect(((await response.json()) as LooseJson).error.code).toBe('session-not-found');
      }
      const archive = await call(`/v1/sessions/${created.id}/archive/${id}`);
      expect(archive.status, id).toBe(404);
      expect(((await archive.json()) as LooseJson).error.code).toBe('archive-not-found');
    }
  });

  it('answers 405 and documents it on every operation', async () => {
    const response = await call('/v1/health', { method: 'PUT' });
    expect(response.status).toBe(405);
    const document = (await (await call('/openapi.json')).json()) as LooseJson;
    for (const [path, item] of Object.entries(document.paths as Record<string, LooseJson>)) {
      for (const [method, operation] of Object.entries(item as Record<string, LooseJson>)) {
        if (method === 'parameters') continue;
        expect(Object.keys(operation.responses), `${method} ${path}`).toContain('405');
      }
    }
  });
});

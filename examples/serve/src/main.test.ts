import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('drives a session over HTTP: manual compaction with instructions, automatic compaction, the event list', () => {
  // Its own temporary folder, to see that the example leaves none of its folders behind in it (tsx keeps its
  // cache there too).
  const temporary = mkdtempSync(join(tmpdir(), 'compaction-example-test-'));
  let output: string;
  try {
    output = execFileSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, TMPDIR: temporary },
      encoding: 'utf8',
    });
    expect(readdirSync(temporary).filter((name) => name.startsWith('compaction-'))).toEqual([]);
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
  expect(output).toMatch(
    /^Serving on http:\/\/127\.0\.0\.1:\d+ \(strategy tool-result-truncation, sliding-window\)$/m,
  );

  /** The status and body printed under a request line. */
  const answer = (label: string) => {
    const lines = output.split('\n');
    const line = lines[lines.indexOf(label) + 1]!;
    const [, status, body] = /^ {2}(\d{3}) (.*)$/.exec(line)!;
    return { status: Number(status), body: body! };
  };
  const created = answer('POST /v1/sessions (4 messages)');
  expect(created.status).toBe(201);
  expect(JSON.parse(created.body)).toMatchObject({ messages: 4, compactions: 0 });

  const appended = answer('POST /v1/sessions/:id/messages (16 more)');
  expect(JSON.parse(appended.body)).toMatchObject({ messages: 20, compacted: false });

  const manual = JSON.parse(answer('POST /v1/sessions/:id/compact (with instructions)').body);
  expect(manual).toMatchObject({ compacted: true, compactions: 1 });
  expect(manual.event).toMatch(/^round 1 \(manual\)/);
  expect(manual.tokens).toBeLessThanOrEqual(manual.budget.target);

  const automatic = JSON.parse(answer('POST /v1/sessions/:id/messages (40 more)').body);
  expect(automatic).toMatchObject({ compacted: true, compactions: 2 });
  expect(automatic.event).toMatch(/^round 2 \(auto\) tool-result-truncation → sliding-window/);
  expect(automatic.tokens).toBeLessThanOrEqual(automatic.budget.target);

  const redirected = answer('POST /v1/compact (with a provider base URL)');
  expect(redirected.status).toBe(403);
  expect(JSON.parse(redirected.body).error).toMatchObject({
    code: 'config-not-allowed',
    message: expect.stringMatching(/^config\.provider: this server has no provider/),
  });
  expect(answer('GET /v1/sessions')).toEqual({ status: 200, body: '1 session' });

  // The server started again on the same store serves the session as it was.
  expect(output).toMatch(/^Restarted on http:\/\/127\.0\.0\.1:\d+: 1 session restored$/m);
  const restored = answer('GET /v1/sessions/:id (after the restart)');
  expect(restored.status).toBe(200);
  expect(JSON.parse(restored.body)).toEqual({ ...automatic, compacted: undefined, event: undefined });
  expect(answer('GET /v1/sessions/:id/compactions')).toEqual({ status: 200, body: '2 compactions' });
  expect(output).toContain(`    ${manual.event}\n    ${automatic.event}\n`);
  expect(answer('DELETE /v1/sessions/:id').status).toBe(204);
  expect(output.trimEnd().endsWith('Server stopped.')).toBe(true);
});

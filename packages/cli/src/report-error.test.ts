import { PassThrough } from 'node:stream';
import { FormatError } from '@compaction/formats';
import { expect, it } from 'vitest';
import { describeOnFullRun } from './__fixtures__/full-run.js';
import type { CliIO } from './cli-io.js';
import { reportError } from './report-error.js';

function captured(): { io: CliIO; stderr: () => string } {
  const stderr = new PassThrough();
  const chunks: Buffer[] = [];
  stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  const io: CliIO = { stdout: new PassThrough(), stderr, stdin: new PassThrough(), cwd: '/', env: {} };
  return { io, stderr: () => Buffer.concat(chunks).toString('utf8') };
}

// Not on the Node 22 compatibility run: printing an error is plain code, with no module of the runtime (the Node
// 20 run has run it).
describeOnFullRun('reportError of a format error', () => {
  it('prints an unreadable input as the CLI prints its own: the message alone, exit code 2, code cli/input', () => {
    const text = captured();
    const error = new FormatError({
      reason: 'input',
      message: 'in.json: invalid JSON at line 1, column 2: x',
    });
    expect(reportError(error, text.io)).toBe(2);
    expect(text.stderr()).toBe('compaction: in.json: invalid JSON at line 1, column 2: x\n');
    const json = captured();
    expect(reportError(error, json.io, { json: true })).toBe(2);
    expect(JSON.parse(json.stderr())).toEqual({
      version: 1,
      error: { code: 'cli/input', message: 'in.json: invalid JSON at line 1, column 2: x', exitCode: 2 },
    });
  });

  it('prints a missing provider package as a configuration error (exit code 1), and no input as a usage error', () => {
    const missing = captured();
    const message = 'this format needs @compaction/provider-openai; install it next to @compaction/formats';
    expect(
      reportError(new FormatError({ reason: 'missing-package', message }), missing.io, { json: true }),
    ).toBe(1);
    expect(JSON.parse(missing.stderr()).error).toEqual({ code: 'cli/config', message, exitCode: 1 });
    const usage = captured();
    expect(
      reportError(new FormatError({ reason: 'usage', message: 'no input' }), usage.io, { json: true }),
    ).toBe(1);
    expect(JSON.parse(usage.stderr()).error.code).toBe('cli/usage');
  });
});

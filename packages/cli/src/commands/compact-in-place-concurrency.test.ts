import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { defaultSummarySections } from '@compaction/strategy-summarization';
import { afterEach, describe, expect, it } from 'vitest';
import {
  binary,
  example,
  type LooseJson,
  packageDirectory,
  temporaryDirectory,
} from '../__fixtures__/run-binary.js';

const summary = defaultSummarySections.map((section) => `## ${section}\nThe parser work goes on.`).join('\n');
const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/**
 * A loopback Anthropic Messages API whose summaries wait until the test releases them: each run of
 * `compact --strategy summarization` has read its input when its request arrives, and writes only once it is
 * answered, so the test decides the order of reads and writes.
 */
async function startGatedSummarizer() {
  const waiting: ServerResponse[] = [];
  let arrived = 0;
  const listeners: Array<() => void> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url?.startsWith('/v1/messages/count_tokens')) {
        const characters = Buffer.concat(chunks).length;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ input_tokens: Math.ceil(characters / 4) }));
        return;
      }
      waiting.push(response);
      arrived++;
      for (const listener of listeners.splice(0)) listener();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Resolves once `count` summary requests have arrived in all. */
    async arrivals(count: number): Promise<void> {
      while (arrived < count) await new Promise<void>((resolve) => listeners.push(resolve));
    },
    /** Answers the oldest waiting request. */
    answerOne(): void {
      const response = waiting.shift();
      if (response === undefined) throw new Error('no summary request is waiting');
      response.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_gated' });
      response.end(
        JSON.stringify({
          id: 'msg_gated',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-6',
          content: [{ type: 'text', text: summary }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 1000, output_tokens: 100 },
        }),
      );
    },
  };
}

interface Run {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** Starts the built binary, as a user's shell would, several of which can run at once. */
function startBinary(args: string[], env: NodeJS.ProcessEnv): Run {
  const child = spawn(process.execPath, [binary, ...args], {
    cwd: packageDirectory,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  closers.push(() => void child.kill('SIGKILL'));
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done };
}

const changedMessage =
  /^compaction: .* changed while it was being compacted \(another run or an editor wrote it\); nothing was written/;

describe('compact --in-place run several times at once on one file', () => {
  it('writes one compaction of the file as read; a run whose file was replaced meanwhile fails and writes nothing', async () => {
    const gate = await startGatedSummarizer();
    const directory = temporaryDirectory();
    const file = join(directory, 'conversation.json');
    copyFileSync(example, file);
    const original = readFileSync(file, 'utf8');
    const originalCount = (JSON.parse(original) as unknown[]).length;
    const flags = ['--strategy', 'summarization', '--provider', 'anthropic', '--model', 'claude-sonnet-4-6'];
    const env = { ANTHROPIC_API_KEY: 'test-key' };

    // What one compaction of the original gives, written elsewhere.
    const reference = join(directory, 'reference.json');
    const once = startBinary(['compact', file, '-o', reference, ...flags, '--base-url', gate.url], env);
    await gate.arrivals(1);
    gate.answerOne();
    expect((await once.done).code).toBe(0);
    const compactedOnce = readFileSync(reference, 'utf8');
    expect(compactedOnce).not.toBe(original);

    // Four runs at once: every one has read the original before any writes.
    const runs = Array.from({ length: 4 }, () =>
      startBinary(['compact', file, '--in-place', '--json', ...flags, '--base-url', gate.url], env),
    );
    await gate.arrivals(5);
    // Answered one at a time: each run writes (or fails) before the next one gets its summary.
    const results = [];
    const pending = new Map(
      runs.map((run, index) => [index, run.done.then((result) => ({ index, result }))]),
    );
    while (pending.size > 0) {
      gate.answerOne();
      const { index, result } = await Promise.race(pending.values());
      pending.delete(index);
      results.push(result);
    }
    const succeeded = results.filter((result) => result.code === 0);
    for (const result of results) {
      if (result.code === 0) {
        const report: LooseJson = JSON.parse(result.stdout);
        expect(report.before.messages).toBe(originalCount);
      } else {
        expect(result.code, result.stderr).toBe(1);
        // With --json the error is a JSON document: its message is the line a plain run prints.
        const { error } = JSON.parse(result.stderr);
        expect(error).toMatchObject({ code: 'cli/usage', exitCode: 1 });
        expect(`compaction: ${error.message}`).toMatch(changedMessage);
      }
    }
    // The first to write replaced the file; every later one found it replaced since it read it.
    expect(succeeded).toHaveLength(1);
    expect(readFileSync(file, 'utf8')).toBe(compactedOnce);
    expect(readdirSync(directory).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  }, 60_000);

  it("keeps an editor's change made while the file was being compacted", async () => {
    const gate = await startGatedSummarizer();
    const directory = temporaryDirectory();
    const file = join(directory, 'conversation.json');
    copyFileSync(example, file);
    const run = startBinary(
      [
        'compact',
        file,
        '--in-place',
        '--strategy',
        'summarization',
        '--provider',
        'anthropic',
        '--model',
        'claude-sonnet-4-6',
        '--base-url',
        gate.url,
      ],
      { ANTHROPIC_API_KEY: 'test-key' },
    );
    await gate.arrivals(1);
    // Saved in place, as an editor does, while the summary is on its way.
    appendFileSync(file, '\n');
    const edited = readFileSync(file, 'utf8');
    gate.answerOne();
    const result = await run.done;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(changedMessage);
    expect(readFileSync(file, 'utf8')).toBe(edited);
  }, 60_000);
});

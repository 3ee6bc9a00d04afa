import { createMessageEstimator, type Message } from '@compaction/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './loopback-server.js';
import {
  countMessages,
  readFileOutput,
  type ScriptedAgentWire,
  scriptAgentAnswers,
} from './scripted-agent.js';

const estimator = createMessageEstimator({
  name: 'approximate:1',
  countText: (text) => Math.ceil(text.length / 1),
});

/** A tiny wire format: the body is `{ text }`, counted as one user message. */
const wire: ScriptedAgentWire = {
  path: '/answer',
  count: (body) =>
    countMessages(
      [
        {
          role: 'user',
          content: [{ type: 'text', text: (body as { text: string }).text }],
        } satisfies Message,
      ],
      estimator,
    ),
  reply: (answer, inputTokens) => ({ ...answer, inputTokens }),
  refusal: (tokens, maximum, answer) => ({ status: 400, body: { tokens, maximum, answer } }),
  callIdPrefix: 'toolu',
};

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

async function post(text: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}/answer`, { method: 'POST', body: JSON.stringify({ text }) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('scriptAgentAnswers', () => {
  it('answers with tool calls, then text, and records every exchange', async () => {
    const exchanges = scriptAgentAnswers(server, { toolSteps: 2, calls: [1, 3], estimator }, wire);
    const first = await post('a'.repeat(10));
    const second = await post('b'.repeat(20));
    const last = await post('c');
    expect(first.body).toMatchObject({
      answer: 1,
      done: false,
      calls: [{ id: 'toolu_1_0', path: 'src/module-1-0.ts' }],
    });
    expect((second.body.calls as unknown[]).length).toBe(3);
    expect(last.body).toMatchObject({ answer: 3, done: true, calls: [] });
    expect(exchanges.map(({ answer, overflowed }) => [answer, overflowed])).toEqual([
      [1, false],
      [2, false],
      [3, false],
    ]);
    expect(exchanges[1]!.inputTokens).toBe(second.body.inputTokens);
    expect(exchanges[1]!.inputTokens).toBeGreaterThan(exchanges[0]!.inputTokens);
  });

  it('refuses the first attempt of an overflow answer and answers the retry', async () => {
    const exchanges = scriptAgentAnswers(
      server,
      { toolSteps: 1, overflowAt: [1], contextWindow: 5, estimator, usageScale: 2 },
      wire,
    );
    const refused = await post('x'.repeat(40));
    const retried = await post('x');
    expect(refused.status).toBe(400);
    expect(refused.body.maximum).toBe(5);
    expect(refused.body.tokens).toBe(Math.max(6, Math.ceil(exchanges[0]!.inputTokens * 1.6)));
    expect(retried.body).toMatchObject({ answer: 1, done: false });
    expect(exchanges.map(({ answer, overflowed }) => [answer, overflowed])).toEqual([
      [1, true],
      [1, false],
    ]);
  });

  it('makes two calls every parallelEvery answers', async () => {
    scriptAgentAnswers(
      server,
      { toolSteps: 4, parallelEvery: 2, estimator },
      { ...wire, callIdPrefix: undefined },
    );
    const counts: number[] = [];
    for (let index = 0; index < 4; index++) {
      const { body } = await post('y');
      counts.push((body.calls as Array<{ id: string }>).length);
      expect((body.calls as Array<{ id: string }>)[0]!.id).toBe(`call_${index + 1}_0`);
    }
    expect(counts).toEqual([1, 2, 1, 2]);
  });
});

describe('readFileOutput', () => {
  it('lists the requested number of distinct lines for the path', () => {
    const output = readFileOutput('src/a.ts', 3).split('\n');
    expect(output).toHaveLength(3);
    expect(new Set(output).size).toBe(3);
    expect(output.every((line) => line.startsWith('src/a.ts:'))).toBe(true);
    expect(readFileOutput('src/a.ts').split('\n')).toHaveLength(60);
  });
});

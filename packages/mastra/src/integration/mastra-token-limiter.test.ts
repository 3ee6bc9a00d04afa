import { createStrategyRegistry, InMemoryCompactionStore } from '@compaction/core';
import slidingWindow from '@compaction/strategy-sliding-window';
import toolResultTruncation from '@compaction/strategy-tool-result-truncation';
import { anthropicMessagesViolations } from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { InMemoryStore } from '@mastra/core/storage';
import { Memory } from '@mastra/memory';
import { TokenLimiter } from '@mastra/memory/processors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codingAgent } from '../__fixtures__/coding-agent.js';
import { fileReadingScript } from '../__fixtures__/file-reading-script.js';
import { type AnthropicBody, scriptAnthropic } from '../__fixtures__/scripted-anthropic.js';
import { compactionInputProcessor } from './compaction-input-processor.js';
import { CompactionMemoryProcessor } from './compaction-memory-processor.js';

const turns = [
  'Fix the failing build: read src/a.ts, src/b.ts',
  'Next read src/c.ts, src/d.ts',
  'Then read src/e.ts, src/f.ts',
  'Finally read src/g.ts',
];

/** The `tool_use` blocks of a request. */
function toolUses(body: AnthropicBody): Array<Record<string, unknown>> {
  return body.messages.flatMap((message) =>
    typeof message.content === 'string' ? [] : message.content.filter((block) => block.type === 'tool_use'),
  );
}

describe("Mastra's TokenLimiter beside compactionInputProcessor, on the same conversation", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('TokenLimiter drops the task: the request opens with a "." where it was', async () => {
    server.reset();
    scriptAnthropic(server, fileReadingScript());
    const memory = new Memory({
      storage: new InMemoryStore(),
      processors: [new TokenLimiter(2000)],
      options: { lastMessages: 100, threads: { generateTitle: false } },
    });
    // Small files: the limiter counts with a JavaScript tokenizer, slow on long texts.
    const agent = codingAgent({ baseURL: `${server.url}/v1`, memory, fileCharacters: 2000 });
    for (const text of turns) {
      await agent.generate(text, { maxSteps: 8, memory: { thread: 'build', resource: 'developer' } });
    }
    const limited = server.requests.at(-1)!.body as AnthropicBody;
    // Whole messages are dropped, oldest first, and a tool call weighs nothing in the limiter's count, so no call
    // is parted from its result here: the request is well formed...
    expect(anthropicMessagesViolations(limited)).toEqual([]);
    // ...but the task is gone: a "." stands where it was.
    expect(JSON.stringify(limited.messages)).not.toContain(turns[0]);
    expect(limited.messages[0]!.content).toEqual([{ type: 'text', text: '.' }]);
  });

  it('compactionInputProcessor keeps the task and every call with its result', async () => {
    server.reset();
    scriptAnthropic(server, fileReadingScript());
    const processor = compactionInputProcessor({
      strategy: ['tool-result-truncation', 'sliding-window'],
      registry: createStrategyRegistry({ definitions: [toolResultTruncation, slidingWindow] as never[] }),
      budget: { contextWindow: 12_000, trigger: 0.5, target: 0.25 },
      store: new InMemoryCompactionStore(),
    });
    let compactions = 0;
    (await processor.compactor()).on('end', () => compactions++);
    const agent = codingAgent({ baseURL: `${server.url}/v1`, inputProcessors: [processor] });
    const history: unknown[] = [];
    for (const text of turns) {
      history.push({ role: 'user', content: text });
      history.push(...((await agent.generate(history as never, { maxSteps: 8 })).response.messages ?? []));
    }
    expect(compactions).toBeGreaterThan(0);
    for (const request of server.requests) {
      const body = request.body as AnthropicBody;
      expect(anthropicMessagesViolations(body)).toEqual([]);
      expect(JSON.stringify(body.messages[0])).toContain(turns[0]);
      for (const block of toolUses(body)) expect(block.input).toHaveProperty('path');
    }
  });

  it('CompactionMemoryProcessor, in place of TokenLimiter, keeps the task and every call with its result', async () => {
    server.reset();
    scriptAnthropic(server, fileReadingScript());
    const processor = new CompactionMemoryProcessor({
      strategy: ['tool-result-truncation', 'sliding-window'],
      registry: createStrategyRegistry({ definitions: [toolResultTruncation, slidingWindow] as never[] }),
      budget: { contextWindow: 12_000, trigger: 0.5, target: 0.25 },
    });
    let compactions = 0;
    (await processor.compactor()).on('end', () => compactions++);
    const memory = new Memory({
      storage: new InMemoryStore(),
      processors: [processor],
      options: { lastMessages: 100, threads: { generateTitle: false } },
    });
    const agent = codingAgent({ baseURL: `${server.url}/v1`, memory });
    for (const text of turns) {
      await agent.generate(text, { maxSteps: 8, memory: { thread: 'build', resource: 'developer' } });
    }
    expect(compactions).toBeGreaterThan(0);
    // The agent read seven files of 8,000 characters; no request carried them all.
    expect(Math.max(...server.requests.map((request) => request.rawBody.length))).toBeLessThan(7 * 8000);
    for (const request of server.requests) {
      const body = request.body as AnthropicBody;
      expect(anthropicMessagesViolations(body)).toEqual([]);
      expect(JSON.stringify(body.messages[0])).toContain(turns[0]);
      for (const block of toolUses(body)) expect(block.input).toHaveProperty('path');
    }
  });
});

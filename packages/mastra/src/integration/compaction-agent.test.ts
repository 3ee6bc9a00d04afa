import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { type CompactionEvent, createStrategyRegistry, InMemoryCompactionStore } from '@compaction/core';
import slidingWindow from '@compaction/strategy-sliding-window';
import toolResultTruncation from '@compaction/strategy-tool-result-truncation';
import {
  anthropicMessagesViolations,
  type ContractViolation,
  openAIChatViolations,
} from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import type { Agent } from '@mastra/core/agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codingAgent } from '../__fixtures__/coding-agent.js';
import { fileReadingScript } from '../__fixtures__/file-reading-script.js';
import { scriptAnthropic } from '../__fixtures__/scripted-anthropic.js';
import { scriptChatCompletions } from '../__fixtures__/scripted-chat-completions.js';
import { compactionInputProcessor } from './compaction-input-processor.js';
import { compactionRecallTool } from './compaction-recall-tool.js';

const task = 'Fix the failing build: read src/a.ts, src/b.ts';
const turns = [
  task,
  'Next read src/c.ts, src/d.ts',
  'Then read src/e.ts, src/f.ts',
  'Finally read src/g.ts, src/h.ts',
];

/** How one provider API is scripted, reached and checked. */
interface Wire {
  name: string;
  script(server: TestServer): void;
  model(baseURL: string): ConstructorParameters<typeof Agent>[0]['model'];
  violations(body: unknown): ContractViolation[];
}

const wires: Wire[] = [
  {
    name: '@ai-sdk/anthropic (Messages)',
    script: (server) => scriptAnthropic(server, fileReadingScript('toolu')),
    model: (baseURL) => createAnthropic({ baseURL, apiKey: 'test' })('claude-sonnet-4-5'),
    violations: anthropicMessagesViolations,
  },
  {
    name: '@ai-sdk/openai (Chat Completions)',
    script: (server) => scriptChatCompletions(server, fileReadingScript('call')),
    model: (baseURL) => createOpenAI({ baseURL, apiKey: 'test' }).chat('gpt-4.1'),
    violations: openAIChatViolations,
  },
];

type Body = { messages: Array<{ role: string }> };

describe.each(wires)('compactionInputProcessor in a Mastra agent over $name', (wire) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('compacts a multi-turn tool-using conversation into valid requests, keeps the task, and recalls', async () => {
    wire.script(server);
    const store = new InMemoryCompactionStore();
    const sessionId = 'build-fix';
    const processor = compactionInputProcessor({
      // By name, through a registry, as a config would give them.
      strategy: [{ name: 'tool-result-truncation', options: { keepRecent: 1 } }, 'sliding-window'],
      registry: createStrategyRegistry({ definitions: [toolResultTruncation, slidingWindow] as never[] }),
      budget: { contextWindow: 12_000, trigger: 0.6, target: 0.3 },
      store,
      archive: true,
      sessionId,
    });
    const compactions: CompactionEvent[] = [];
    let firstCompactedRequest = -1;
    (await processor.compactor()).on('end', (event) => {
      compactions.push(event);
      if (firstCompactedRequest === -1) firstCompactedRequest = server.requests.length;
    });
    const agent = codingAgent({
      baseURL: `${server.url}/v1`,
      model: wire.model(`${server.url}/v1`),
      inputProcessors: [processor],
      tools: { recall: compactionRecallTool({ store, sessionId }) },
    });

    const history: unknown[] = [];
    for (const text of [...turns, 'Recall what src/a.ts held']) {
      history.push({ role: 'user', content: text });
      const result = await agent.generate(history as never, { maxSteps: 8 });
      history.push(...(result.response.messages ?? []));
    }

    expect(compactions.length).toBeGreaterThan(0);
    expect(firstCompactedRequest).toBeGreaterThan(0);
    for (const request of server.requests.slice(firstCompactedRequest)) {
      expect(wire.violations(request.body)).toEqual([]);
      // The task opens the conversation (after the system prompt, where the API takes it as a message).
      const conversation = (request.body as Body).messages.filter((message) => message.role !== 'system');
      expect(JSON.stringify(conversation[0])).toContain(task);
    }
    // The request after compaction is smaller than the history it stands for.
    const last = server.requests.at(-1)!;
    expect(last.rawBody.length).toBeLessThan(JSON.stringify(history).length / 2);
    // The model recalled a cleared file and got its text back.
    const lastMessages = (last.body as Body).messages;
    expect(JSON.stringify(lastMessages.at(-2))).toContain('recall');
    expect(JSON.stringify(lastMessages.at(-1))).toContain("compute('src/");
    // The caller's history is the full conversation: every file read is there whole.
    expect(JSON.stringify(history)).toContain("compute('src/h.ts')");
  });
});

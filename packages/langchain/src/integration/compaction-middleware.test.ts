import { type CompactionEvent, InMemoryCompactionStore } from '@compaction/core';
import { anthropicMessagesViolations, openAIChatViolations } from '@compaction/testing';
import { HumanMessage } from '@langchain/core/messages';
import { createAgent } from 'langchain';
import { afterEach, describe, expect, it } from 'vitest';
import {
  budget,
  chatModel,
  codingScript,
  fileText,
  finalAnswer,
  paths,
  readFile,
  systemPrompt,
  task,
} from '../__fixtures__/coding-agent.js';
import {
  promptTokens,
  type ScriptedModelServer,
  startScriptedModel,
  type Wire,
} from '../__fixtures__/scripted-model-server.js';
import { compactionMiddleware } from './compaction-middleware.js';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const violationsOf = (wire: Wire, body: unknown) =>
  wire === 'openai' ? openAIChatViolations(body) : anthropicMessagesViolations(body);

async function runAgent(wire: Wire, refuse: readonly number[] = []) {
  const script = codingScript(refuse);
  server = await startScriptedModel(script);
  const store = new InMemoryCompactionStore();
  const middleware = compactionMiddleware({
    // By name, through the registry: the package is loaded as a config naming it would.
    strategy: { name: 'tool-result-truncation', options: { keepRecent: 1 } },
    budget,
    store,
    archive: true,
    sessionId: `e2e-${wire}`,
  });
  const requests = server.requests;
  const events: Array<CompactionEvent & { request: number }> = [];
  (await middleware.compactor()).on('end', (event) => events.push({ ...event, request: requests.length }));
  const agent = createAgent({
    model: chatModel(wire, server.url),
    tools: [readFile],
    systemPrompt,
    middleware: [middleware],
  });
  const result = await agent.invoke({ messages: [new HumanMessage(task)] }, { recursionLimit: 50 });
  return { result, requests, events, script };
}

describe.each(['openai', 'anthropic'] as const)('compactionMiddleware with %s', (wire) => {
  it('compacts a multi-turn tool-using agent, keeps every request valid and the task, and recalls', async () => {
    const { result, requests, events, script } = await runAgent(wire);
    // Every file read, one recall, the answer.
    expect(requests).toHaveLength(paths.length + 2);
    expect(result.messages.at(-1)?.text).toBe(finalAnswer);

    expect(events.length).toBeGreaterThanOrEqual(1);
    for (const event of events) {
      expect(event).toMatchObject({ trigger: 'auto', sessionId: `e2e-${wire}` });
      expect(event.tokensAfter).toBeLessThan(event.tokensBefore);
    }
    const firstCompacted = events[0]!.request;
    expect(firstCompacted).toBeLessThan(paths.length);
    for (const [index, request] of requests.entries()) {
      const body = request.body as Record<string, unknown>;
      const text = JSON.stringify(body);
      // Every request the framework sent is one the provider accepts, and keeps the system prompt and the task.
      expect(violationsOf(wire, body), `request ${index}`).toEqual([]);
      expect(text).toContain(systemPrompt);
      expect(text).toContain(task);
    }
    // The request after each compaction is smaller than the one before it, and none outgrew the window.
    for (const { request } of events) {
      expect(requests[request]!.rawBody.length).toBeLessThan(requests[request - 1]!.rawBody.length);
    }
    for (const request of requests) {
      expect(promptTokens(request.body as Record<string, unknown>)).toBeLessThanOrEqual(budget.contextWindow);
    }

    // The model recalled a result a placeholder named, and got a cleared file's text back: only the newest
    // file is whole before the recall.
    expect(script.recalledHandle).toBeDefined();
    const whole = (index: number) => {
      const body = JSON.stringify(requests[index]!.body);
      return paths.filter((path) => body.includes(JSON.stringify(fileText(path)).slice(1, -1)));
    };
    expect(whole(requests.length - 2)).toEqual([paths.at(-1)]);
    expect(whole(requests.length - 1)).toHaveLength(2);

    // The agent's state holds the compacted history: placeholders, the task first after nothing else.
    const state = result.messages;
    expect(state[0]?.text).toBe(task);
    expect(JSON.stringify(state.map((message) => message.content))).toContain('recall');
    expect(state.filter((message) => message.getType() === 'tool').length).toBe(paths.length + 1);
  });

  it('recovers from a context overflow the model raises by compacting and retrying', async () => {
    const { result, requests, events } = await runAgent(wire, [3]);
    expect(result.messages.at(-1)?.text).toBe(finalAnswer);
    const overflow = events.filter((event) => event.trigger === 'overflow');
    expect(overflow).toHaveLength(1);
    // The retry follows the refused request, smaller, and valid.
    const retry = overflow[0]!.request;
    expect(retry).toBe(4);
    expect(requests[retry]!.rawBody.length).toBeLessThan(requests[3]!.rawBody.length);
    for (const request of requests.slice(retry)) expect(violationsOf(wire, request.body)).toEqual([]);
  });
});

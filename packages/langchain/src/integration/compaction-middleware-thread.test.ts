import { type CompactionEvent, InMemoryCompactionStore } from '@compaction/core';
import { openAIChatViolations } from '@compaction/testing';
import { HumanMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent, createMiddleware } from 'langchain';
import { afterEach, expect, it } from 'vitest';
import {
  budget,
  chatModel,
  codingScript,
  fileText,
  paths,
  readFile,
  systemPrompt,
  task,
} from '../__fixtures__/coding-agent.js';
import { type ScriptedModelServer, startScriptedModel } from '../__fixtures__/scripted-model-server.js';
import { compactionMiddleware } from './compaction-middleware.js';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

it('writes the compaction into the thread, so the next run continues from it, under the thread as session', async () => {
  server = await startScriptedModel(codingScript());
  const store = new InMemoryCompactionStore();
  const middleware = compactionMiddleware({
    strategy: 'tool-result-truncation',
    budget,
    store,
    archive: true,
  });
  const events: CompactionEvent[] = [];
  (await middleware.compactor()).on('end', (event) => events.push(event));
  const agent = createAgent({
    model: chatModel('openai', server.url),
    tools: [readFile],
    systemPrompt,
    middleware: [middleware],
    checkpointer: new MemorySaver(),
  });
  const thread = { configurable: { thread_id: 'thread-1' }, recursionLimit: 50 };
  const first = await agent.invoke({ messages: [new HumanMessage(task)] }, thread);
  const firstRun = server.requests.length;
  const compactions = events.length;
  // The state holds the placeholders, not the cleared files.
  const state = JSON.stringify(first.messages.map((message) => message.content));
  expect(state).toMatch(/omitted; recall \\"[a-z0-9]+\\"/);
  expect(state.includes(JSON.stringify(fileText(paths[1]!)).slice(1, -1))).toBe(false);
  // The recall tool read the thread's archive: the output it names is there, whole.
  const recalled = first.messages.find(
    (message) => message.getType() === 'tool' && message.name === 'recall',
  );
  expect(recalled?.text).toContain(fileText(paths[0]!));
  expect(events.length).toBeGreaterThanOrEqual(1);
  expect(events.every((event) => event.sessionId === 'thread-1')).toBe(true);
  expect(await store.list('thread-1')).toHaveLength(events.length);

  const result = await agent.invoke({ messages: [new HumanMessage('Which module rounds?')] }, thread);
  expect(result.messages.at(-1)?.getType()).toBe('ai');
  // Nothing to compact again: the run started from the compacted history.
  expect(events).toHaveLength(compactions);
  const next = server.requests[firstRun]!;
  const body = JSON.stringify(next.body);
  // The checkpointed history is the compacted one: a file read early stays cleared (the first came back through
  // recall), the task and the new request are there.
  expect(body.includes(JSON.stringify(fileText(paths[1]!)).slice(1, -1))).toBe(false);
  expect(body).toContain('recall');
  expect(body).toContain(task);
  expect(body).toContain('Which module rounds?');
  expect(openAIChatViolations(next.body)).toEqual([]);
  expect(next.rawBody.length).toBeLessThan(server.requests[firstRun - 1]!.rawBody.length + 200);
});

it('compacts only the call, and leaves the state alone, when an earlier middleware changed the messages', async () => {
  server = await startScriptedModel(codingScript());
  const middleware = compactionMiddleware({
    strategy: 'tool-result-truncation',
    budget,
    store: new InMemoryCompactionStore(),
    archive: true,
  });
  const copying = createMiddleware({
    name: 'CopyMessages',
    wrapModelCall: (request, handler) => handler({ ...request, messages: [...request.messages] }),
  });
  const events: CompactionEvent[] = [];
  (await middleware.compactor()).on('end', (event) => events.push(event));
  const agent = createAgent({
    model: chatModel('openai', server.url),
    tools: [readFile],
    systemPrompt,
    middleware: [copying, middleware],
  });
  const result = await agent.invoke({ messages: [new HumanMessage(task)] }, { recursionLimit: 50 });
  expect(events.length).toBeGreaterThanOrEqual(1);
  // The requests were compacted; the state keeps every file whole.
  expect(JSON.stringify(server.requests.at(-2)!.body)).toMatch(/omitted; recall/);
  const state = JSON.stringify(result.messages.map((message) => message.content));
  for (const path of paths) expect(state.includes(JSON.stringify(fileText(path)).slice(1, -1))).toBe(true);
});

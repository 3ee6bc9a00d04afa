import {
  BudgetUnreachableError,
  type CompactionEvent,
  createPipeline,
  InMemoryCompactionStore,
} from '@compaction/core';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { openAIChatViolations, openAIResponsesViolations } from '@compaction/testing';
import {
  Agent,
  type Model,
  OpenAIChatCompletionsModel,
  OpenAIResponsesModel,
  run,
  setTracingDisabled,
  tool,
} from '@openai/agents';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  fileText,
  type ScriptedAgentServer,
  type ScriptedApi,
  type ScriptedStep,
  startScriptedAgentServer,
} from './__fixtures__/scripted-agent-server.js';
import { compactionRecallTool } from './compaction-recall-tool.js';
import { CompactionSession } from './compaction-session.js';

// The SDK would export traces to the OpenAI API; the tests talk to 127.0.0.1 only.
beforeAll(() => setTracingDisabled(true));
afterAll(() => setTracingDisabled(false));

let server: ScriptedAgentServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const task = 'The half-cent invoice is off by one cent: read the billing modules and find out why.';
const paths = ['src/billing/module-1.ts', 'src/billing/module-2.ts', 'src/billing/module-3.ts'];
const allPaths = [...paths, 'src/billing/module-4.ts'];
/** A file's text as it appears inside a request's JSON. */
const inJson = (path: string) => JSON.stringify(fileText(path)).slice(1, -1);
const readSteps = (names: readonly string[]): ScriptedStep[] => names.map((path) => ({ kind: 'read', path }));
/** Files of about 750 tokens each: the third crosses the trigger (about 2,000 tokens). */
const budget = {
  contextWindow: 4_000,
  reservedOutputTokens: 500,
  safetyMargin: 0,
  trigger: 0.6,
  target: 0.3,
};

const readFile = tool({
  name: 'read_file',
  description: 'Reads a file of the repository.',
  parameters: z.object({ path: z.string() }),
  execute: async ({ path }) => fileText(path),
});

function modelFor(api: ScriptedApi, baseURL: string): Model {
  const client = new OpenAI({ baseURL, apiKey: 'test-key', maxRetries: 0 });
  return api === 'responses'
    ? new OpenAIResponsesModel(client, 'scripted-model')
    : new OpenAIChatCompletionsModel(client, 'scripted-model');
}

const violationsOf = (api: ScriptedApi, body: unknown) =>
  api === 'responses' ? openAIResponsesViolations(body) : openAIChatViolations(body);

/** The request's conversation as text, to look for the task, files and placeholders in it. */
const conversationOf = (api: ScriptedApi, body: unknown) =>
  JSON.stringify(
    api === 'responses' ? (body as { input: unknown }).input : (body as { messages: unknown }).messages,
  );

describe.each(['responses', 'chat'] as const)('CompactionSession with the %s API', (api) => {
  it('compacts inside a tool-using run, keeps every request valid and the task, and recalls what it cleared', async () => {
    server = await startScriptedAgentServer([
      ...readSteps(allPaths),
      { kind: 'recall' },
      { kind: 'answer', text: 'module-4 truncates the half cent.' },
    ]);
    const store = new InMemoryCompactionStore();
    const sessionId = 'task-7';
    const session = new CompactionSession({
      strategy: createPipeline([createToolResultTruncation({ keepRecent: 1 }), createSlidingWindow()]),
      budget,
      store,
      archive: true,
      sessionId,
    });
    const events: CompactionEvent[] = [];
    session.compactor.on('end', (event) => events.push(event));
    const agent = new Agent({
      name: 'coder',
      instructions: 'You are a coding agent.',
      model: session.wrapModel(modelFor(api, server.baseURL)),
      tools: [readFile, compactionRecallTool({ store, sessionId })],
    });

    const result = await run(agent, task, { session, maxTurns: 10 });

    expect(result.finalOutput).toBe('module-4 truncates the half cent.');
    expect(events.length).toBeGreaterThan(0);
    const requests = server.requests.map((request) => request.body);
    expect(requests).toHaveLength(6);
    for (const body of requests) {
      expect(violationsOf(api, body)).toEqual([]);
      expect(conversationOf(api, body)).toContain(task);
    }
    // Without compaction the fifth request would hold all four files; it holds fewer in full.
    const fullFiles = allPaths.filter((path) => conversationOf(api, requests[4]).includes(inJson(path)));
    expect(fullFiles.length).toBeLessThan(allPaths.length);
    // The model recalled the handle a placeholder of the fifth request named, and got the whole file back,
    // which that request no longer held.
    const recallCall = result.history.find(
      (item) => item.type === 'function_call' && item.name === 'recall',
    ) as { callId: string; arguments: string };
    const { handle } = JSON.parse(recallCall.arguments) as { handle: string };
    expect(conversationOf(api, requests[4])).toMatch(new RegExp(`recall \\\\"${handle}\\\\"`));
    const recalled = result.history.find(
      (item) => item.type === 'function_call_result' && item.callId === recallCall.callId,
    ) as { output: unknown };
    const text =
      typeof recalled.output === 'string' ? recalled.output : (recalled.output as { text: string }).text;
    const recalledPath = allPaths.find((path) => fileText(path) === text);
    expect(recalledPath).toBeDefined();
    expect(conversationOf(api, requests[4])).not.toContain(inJson(recalledPath!));
    // The next run starts from the compaction made inside this one, not from the whole history, and does
    // not compact again.
    const compactions = events.length;
    const next = await session.getItems();
    expect(events).toHaveLength(compactions);
    expect(JSON.stringify(next).length).toBeLessThan(JSON.stringify(result.history).length / 2);
    expect(JSON.stringify(next)).toContain(task);
  });

  it('recovers from a context-overflow refusal by compacting and sending again', async () => {
    server = await startScriptedAgentServer(
      [...readSteps(allPaths), { kind: 'answer', text: 'Read them all.' }],
      { refuseOverTokens: 3_000 },
    );
    // No trigger: only the API's refusals make the session compact.
    const session = new CompactionSession({
      strategy: createPipeline([createToolResultTruncation({ keepRecent: 1 }), createSlidingWindow()]),
      budget: { contextWindow: 100_000, trigger: false },
    });
    const events: CompactionEvent[] = [];
    session.compactor.on('end', (event) => events.push(event));
    const agent = new Agent({
      name: 'coder',
      model: session.wrapModel(modelFor(api, server.baseURL)),
      tools: [readFile],
    });

    const result = await run(agent, task, { session, maxTurns: 10 });

    expect(result.finalOutput).toBe('Read them all.');
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((event) => event.trigger === 'overflow')).toBe(true);
    const answered = server.requests.filter((request) => request.rawBody.length / 4 <= 3_000);
    expect(server.requests.length).toBeGreaterThan(answered.length);
    for (const request of answered) {
      expect(violationsOf(api, request.body)).toEqual([]);
      expect(conversationOf(api, request.body)).toContain(task);
    }
  });

  it('lets the run fail with a typed error when no cut gets under what the API takes', async () => {
    server = await startScriptedAgentServer([{ kind: 'answer', text: 'Never sent.' }], {
      refuseOverTokens: 10,
    });
    const session = new CompactionSession({
      strategy: createSlidingWindow(),
      budget: { contextWindow: 100_000, trigger: false },
    });
    const agent = new Agent({ name: 'coder', model: session.wrapModel(modelFor(api, server.baseURL)) });

    const failure = await run(agent, task, { session }).catch((error: unknown) => error);

    // The task alone is over the 10 tokens the API takes: no compaction may remove it.
    expect(BudgetUnreachableError.isInstance(failure)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('compacts the stored history before a run, from run to run', async () => {
    const plan: ScriptedStep[] = paths.flatMap((path, index): ScriptedStep[] => [
      { kind: 'read', path },
      { kind: 'answer', text: `Read module ${index + 1}.` },
    ]);
    server = await startScriptedAgentServer(plan);
    const session = new CompactionSession({
      strategy: createPipeline([createToolResultTruncation({ keepRecent: 1 }), createSlidingWindow()]),
      budget,
    });
    const triggers: CompactionEvent[] = [];
    session.compactor.on('end', (event) => triggers.push(event));
    // The plain model: compaction happens only when a run starts and reads the session.
    const agent = new Agent({ name: 'coder', model: modelFor(api, server.baseURL), tools: [readFile] });

    for (const [index, path] of paths.entries()) {
      const input = index === 0 ? task : `Now read ${path}.`;
      const result = await run(agent, input, { session });
      expect(result.finalOutput).toBe(`Read module ${index + 1}.`);
    }

    expect(triggers.length).toBeGreaterThan(0);
    const requests = server.requests.map((request) => request.body);
    for (const body of requests) {
      expect(violationsOf(api, body)).toEqual([]);
      expect(conversationOf(api, body)).toContain(task);
    }
    // The last run started from the compacted history: the first file is no longer there in full.
    const last = conversationOf(api, requests.at(-1));
    expect(last).not.toContain(inJson(paths[0]!));
    const stored = JSON.stringify(session.storedItems());
    expect(stored).not.toContain(inJson(paths[0]!));
  });
});

describe('CompactionSession with a streamed Responses run', () => {
  it('compacts the calls of a streamed run too', async () => {
    const api = 'responses';
    server = await startScriptedAgentServer([...readSteps(allPaths), { kind: 'answer', text: 'Streamed.' }]);
    const session = new CompactionSession({
      strategy: createPipeline([createToolResultTruncation({ keepRecent: 1 }), createSlidingWindow()]),
      budget,
    });
    const events: CompactionEvent[] = [];
    session.compactor.on('end', (event) => events.push(event));
    const agent = new Agent({
      name: 'coder',
      model: session.wrapModel(modelFor(api, server.baseURL)),
      tools: [readFile],
    });

    const result = await run(agent, task, { session, stream: true, maxTurns: 10 });
    await result.completed;

    expect(result.finalOutput).toBe('Streamed.');
    expect(events.length).toBeGreaterThan(0);
    const requests = server.requests.map((request) => request.body);
    expect(requests.every((body) => (body as { stream?: boolean }).stream === true)).toBe(true);
    for (const body of requests) expect(violationsOf(api, body)).toEqual([]);
    const fullFiles = allPaths.filter((path) => conversationOf(api, requests.at(-1)).includes(inJson(path)));
    expect(fullFiles.length).toBeLessThan(allPaths.length);
  });
});

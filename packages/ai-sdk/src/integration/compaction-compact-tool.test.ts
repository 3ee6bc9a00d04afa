import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { compactToolResultText, noteBeforeCompactionPrompt } from '@compaction/agent-loop';
import type { CompactionEvent, CompactionStrategy } from '@compaction/core';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { openAIChatViolations } from '@compaction/testing';
import { generateText, stepCountIs, wrapLanguageModel } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ChatCompletionsServer,
  type ReceivedRequest,
  requestProblems,
  type ScriptedAnswer,
  startChatCompletionsServer,
} from '../__fixtures__/chat-completions-server.js';
import {
  createStrategy,
  fileText,
  openingMessages,
  budget as smallBudget,
  stepAnswer,
  toolSteps,
  tools,
} from '../__fixtures__/long-conversation.js';
import { compactionMiddleware } from './compaction-middleware.js';
import type { CompactionNoteEvent } from './compaction-note.js';
import { compactionPrepareStep } from './compaction-prepare-step.js';

let server: ChatCompletionsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const instructions = 'The reading phase ended: keep that src/b.ts holds the parser.';
const script: ScriptedAnswer[] = [
  { kind: 'tool-call', toolName: 'read_file', input: { path: 'src/a.ts' } },
  { kind: 'tool-call', toolName: 'read_file', input: { path: 'src/b.ts' } },
  { kind: 'tool-call', toolName: 'compact', input: { instructions } },
  { kind: 'text', text: 'The parser is in src/b.ts.' },
];
/** A window the conversation never comes near: only the model's call compacts. */
const roomyBudget = { contextWindow: 200_000 };

/** The sliding window, recording the instructions of each compaction. */
function recordingWindow(): { strategy: CompactionStrategy; seen: (string | undefined)[] } {
  const inner = createSlidingWindow();
  const seen: (string | undefined)[] = [];
  const strategy: CompactionStrategy = {
    ...inner,
    compact: (input) => {
      seen.push(input.instructions);
      return inner.compact(input);
    },
  };
  return { strategy, seen };
}

async function scriptedModel(answer: (request: ReceivedRequest, index: number) => ScriptedAnswer) {
  server = await startChatCompletionsServer(answer);
  return createOpenAICompatible({ name: 'local', baseURL: server.baseURL, includeUsage: true })(
    'local-model',
  );
}

/** What both integrations check: one forced compaction with the instructions, right after the call. */
function expectCompactedOnRequest(events: CompactionEvent[], seen: (string | undefined)[], target: number) {
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({ trigger: 'manual', instructions });
  expect(events[0]!.tokensBefore).toBeLessThan(target);
  expect(seen).toEqual([instructions]);
  const requests = server!.requests;
  expect(requests).toHaveLength(4);
  const bodies = requests.map((request) => JSON.stringify(request.body));
  const firstFile = fileText('src/a.ts').split('\n')[0]!;
  expect(bodies[2]!.includes(firstFile)).toBe(true);
  expect(bodies[3]!.includes(firstFile)).toBe(false);
  expect(bodies[3]).toContain(compactToolResultText.slice(0, 30));
  for (const request of requests) {
    expect(requestProblems(request.body.messages)).toEqual([]);
    expect(openAIChatViolations(request.body)).toEqual([]);
  }
}

describe('the compact tool of the AI SDK integration', () => {
  it('prepareStep: the step after the call compacts, forced under the target, with its instructions', async () => {
    const model = await scriptedModel((_request, index) => script[index]!);
    const { strategy, seen } = recordingWindow();
    const prepareStep = compactionPrepareStep({ strategy, budget: roomyBudget, compactTool: true });
    const events: CompactionEvent[] = [];
    prepareStep.compactor.on('end', (event) => events.push(event));
    const result = await generateText({
      model,
      messages: openingMessages(),
      allowSystemInMessages: true,
      tools: { ...tools, compact: prepareStep.compactTool! },
      prepareStep,
      stopWhen: stepCountIs(6),
      maxRetries: 0,
    });
    expect(result.text).toBe('The parser is in src/b.ts.');
    expectCompactedOnRequest(events, seen, prepareStep.compactor.budget.target);
  });

  it('middleware: the call after the compact call is compacted, forced, with its instructions', async () => {
    const provider = await scriptedModel((_request, index) => script[index]!);
    const { strategy, seen } = recordingWindow();
    const middleware = compactionMiddleware({ strategy, budget: roomyBudget, compactTool: true });
    const events: CompactionEvent[] = [];
    middleware.compactor.on('end', (event) => events.push(event));
    await generateText({
      model: wrapLanguageModel({ model: provider, middleware }),
      messages: openingMessages(),
      allowSystemInMessages: true,
      tools: { ...tools, compact: middleware.compactTool! },
      stopWhen: stepCountIs(6),
      maxRetries: 0,
    });
    expectCompactedOnRequest(events, seen, middleware.compactor.budget.target);
  });

  it('is not there without compactTool', () => {
    expect(compactionMiddleware({ strategy: createSlidingWindow(), budget: roomyBudget }).compactTool).toBe(
      undefined,
    );
  });
});

describe('the note turn of the compaction middleware', () => {
  const note = 'Keep: module-0 computes value0; the report lists every module.';
  const isNoteRequest = (request: ReceivedRequest) =>
    JSON.stringify(request.body.messages.at(-1)).includes(noteBeforeCompactionPrompt.slice(0, 40));

  it('asks for a note before each automatic compaction and keeps it pinned through it', async () => {
    let answered = 0;
    const provider = await scriptedModel((request) =>
      isNoteRequest(request) ? { kind: 'text', text: note } : stepAnswer(answered++),
    );
    const notes: CompactionNoteEvent[] = [];
    const middleware = compactionMiddleware({
      strategy: createStrategy(),
      budget: smallBudget,
      beforeCompaction: { maximumTokens: 100, onNote: (event) => notes.push(event) },
    });
    const events: CompactionEvent[] = [];
    middleware.compactor.on('end', (event) => events.push(event));
    const result = await generateText({
      model: wrapLanguageModel({ model: provider, middleware }),
      messages: openingMessages(),
      allowSystemInMessages: true,
      tools,
      stopWhen: stepCountIs(toolSteps + 1),
      maxRetries: 0,
    });
    expect(result.text).toBe('All modules compute values.');
    const requests = server!.requests;
    const noteRequests = requests.filter(isNoteRequest);
    expect(events.length).toBeGreaterThan(0);
    expect(noteRequests).toHaveLength(events.length);
    expect(notes).toEqual(events.map(() => ({ status: 'written', text: note })));
    expect(noteRequests[0]!.body).toMatchObject({ max_tokens: 100, tool_choice: 'none' });
    // Every request after the first note carries it: pinned, no compaction removes it.
    const firstNote = requests.indexOf(noteRequests[0]!);
    for (const request of requests.slice(firstNote + 1).filter((request) => !isNoteRequest(request))) {
      expect(JSON.stringify(request.body.messages)).toContain(note);
    }
    for (const request of requests) {
      expect(requestProblems(request.body.messages)).toEqual([]);
      expect(openAIChatViolations(request.body)).toEqual([]);
    }
  });

  it('reports a failed note turn and compacts all the same', async () => {
    let answered = 0;
    const provider = await scriptedModel((request) =>
      isNoteRequest(request)
        ? { kind: 'error', status: 500, body: { error: { message: 'overloaded' } } }
        : stepAnswer(answered++),
    );
    const notes: CompactionNoteEvent[] = [];
    const middleware = compactionMiddleware({
      strategy: createStrategy(),
      budget: smallBudget,
      beforeCompaction: { onNote: (event) => notes.push(event) },
    });
    const events: CompactionEvent[] = [];
    middleware.compactor.on('end', (event) => events.push(event));
    await generateText({
      model: wrapLanguageModel({ model: provider, middleware }),
      messages: openingMessages(),
      allowSystemInMessages: true,
      tools,
      stopWhen: stepCountIs(toolSteps + 1),
      maxRetries: 0,
    });
    expect(events.length).toBeGreaterThan(0);
    expect(notes.length).toBe(events.length);
    expect(notes.every((event) => event.status === 'failed')).toBe(true);
  });
});

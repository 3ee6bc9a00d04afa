import Anthropic from '@anthropic-ai/sdk';
import { compactToolResultText, NoteTimeoutError, noteBeforeCompactionPrompt } from '@compaction/agent-loop';
import {
  type CompactionStrategy,
  createFastEstimator,
  InvalidOptionsError,
  isPinned,
  type Message,
} from '@compaction/core';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { anthropicMessagesViolations, compactedRequestViolations } from '@compaction/testing';
import {
  countMessages,
  readFileOutput,
  startTestServer,
  type TestServer,
} from '@compaction/testing/loopback-server';
import { anthropicProfile } from '@compaction/token-estimator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fromAnthropicRequest } from './from-anthropic-request.js';
import { createAnthropicConversation } from './index.js';

const estimator = createFastEstimator({ profile: anthropicProfile });

let server: TestServer;
let client: Anthropic;

beforeEach(async () => {
  server = await startTestServer();
  client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
});
afterEach(() => server.close());

const readFile: Anthropic.Tool = {
  name: 'read_file',
  description: 'Reads a file of the repository.',
  input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};
const request = { model: 'claude-sonnet-5-5', max_tokens: 512, tools: [readFile] };
const instructions = 'The reading phase ended: keep that src/b.ts holds the parser.';

/** The sliding window, recording the instructions and target of each compaction. */
function recordingWindow(): {
  strategy: CompactionStrategy;
  seen: { instructions?: string; target: number }[];
} {
  const inner = createSlidingWindow();
  const seen: { instructions?: string; target: number }[] = [];
  const strategy: CompactionStrategy = {
    ...inner,
    compact: (input) => {
      seen.push({
        target: input.budget.target,
        ...(input.instructions ? { instructions: input.instructions } : {}),
      });
      return inner.compact(input);
    },
  };
  return { strategy, seen };
}

/** An answer of the scripted model on `/v1/messages`, with usage counted from the request it answers. */
function answerOf(received: { body: unknown }, index: number, content: unknown[]) {
  const messages = fromAnthropicRequest(received.body as never);
  const usesTool = content.some((block) => (block as { type: string }).type === 'tool_use');
  return {
    body: {
      id: `msg_${index}`,
      type: 'message',
      role: 'assistant',
      model: request.model,
      content,
      stop_reason: usesTool ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: countMessages(messages, estimator), output_tokens: 20 },
    },
  };
}

const read = (index: number, path: string) => ({
  type: 'tool_use',
  id: `toolu_read_${index}`,
  name: 'read_file',
  input: { path },
});

/** Each request checked against the uncompacted request it stands for. */
function expectContractKept(history: Anthropic.MessageParam[], historyAtRequest: number[]): void {
  server.requests.forEach((received, index) => {
    const body = received.body as Anthropic.MessageCreateParamsNonStreaming;
    const original = { ...body, messages: history.slice(0, historyAtRequest[index]) };
    expect(compactedRequestViolations('anthropic', original, body)).toEqual([]);
  });
}

describe('an Anthropic conversation with compactTool', () => {
  it('compacts when the model calls compact, forced under the target, with its instructions', async () => {
    const script = [
      [read(1, 'src/a.ts')],
      [read(2, 'src/b.ts')],
      [{ type: 'tool_use', id: 'toolu_compact', name: 'compact', input: { instructions } }],
      [{ type: 'text', text: 'The parser is in src/b.ts.' }],
    ];
    let answers = 0;
    server.handle('/v1/messages', (received) => answerOf(received, answers, script[answers++]!));
    const { strategy, seen } = recordingWindow();
    const conversation = createAnthropicConversation({
      client,
      system: 'You are a careful coding agent.',
      request,
      compactTool: true,
      // A window the conversation never comes near: only the model's call compacts.
      compaction: { strategy, budget: { contextWindow: 200_000 } },
    });
    const historyAtRequest: number[] = [];
    conversation.on('request', () => historyAtRequest.push(conversation.history.length));
    const called: string[] = [];
    await conversation.run('Find the parser.', {
      runTool: (call) => {
        called.push(call.name);
        return readFileOutput((call.input as { path: string }).path);
      },
    });

    expect(called).toEqual(['read_file', 'read_file']);
    const [event] = conversation.compactions;
    expect(conversation.compactions).toHaveLength(1);
    expect(event).toMatchObject({ trigger: 'manual', instructions });
    expect(event!.tokensBefore).toBeLessThan(conversation.compactor.budget.target);
    expect(event!.tokensAfter).toBeLessThan(event!.tokensBefore);
    expect(seen).toEqual([{ instructions, target: Math.floor(event!.tokensBefore / 2) }]);
    // The call is answered, and the request after it is the compacted one: the first file is gone.
    const bodies = server.requests.map((received) => JSON.stringify(received.body));
    expect(bodies[3]).toContain(compactToolResultText.slice(0, 30));
    const firstFile = 'src/a.ts:1: export const value1';
    expect(bodies[2]!.includes(firstFile)).toBe(true);
    expect(bodies[3]!.includes(firstFile)).toBe(false);
    for (const received of server.requests) {
      const tools = (received.body as { tools: Anthropic.Tool[] }).tools.map((tool) => tool.name);
      expect(tools).toEqual(['read_file', 'compact']);
    }
    expectContractKept(conversation.history, historyAtRequest);
  });

  it('refuses a request tool named compact', () => {
    const create = () =>
      createAnthropicConversation({
        client,
        request: { ...request, tools: [readFile, { ...readFile, name: 'compact' }] },
        compactTool: true,
        compaction: { strategy: createSlidingWindow() },
      });
    expect(create).toThrow(InvalidOptionsError);
    expect(create).toThrow(/named "compact"/);
  });
});

describe('a pinned message of an Anthropic conversation', () => {
  it('survives a compaction that removes the turns around it', async () => {
    let answers = 0;
    server.handle('/v1/messages', (received) =>
      answerOf(received, answers++, [{ type: 'text', text: `Noted ${answers}. ${'detail '.repeat(200)}` }]),
    );
    const conversation = createAnthropicConversation({
      client,
      request,
      compaction: { strategy: createSlidingWindow(), budget: { contextWindow: 200_000 } },
    });
    await conversation.send('Start with the lexer.');
    await conversation.send('Use tabs, never spaces.', { pinned: true });
    await conversation.send('Now the parser.');
    conversation.addUserMessage('Always run the tests.', { pinned: true });
    await conversation.send();
    await conversation.send('And the printer.');
    const result = await conversation.compact({ force: true });
    expect(result.compacted).toBe(true);
    const texts = (messages: readonly Message[]) =>
      messages.map((message) => message.content.map((part) => ('text' in part ? part.text : '')).join(''));
    const kept = texts(conversation.coreContext);
    expect(kept).toContain('Use tabs, never spaces.');
    expect(kept).toContain('Always run the tests.');
    // Its neighbours went: the answers before and after the first pin, and the request between the pins.
    expect(kept).not.toContain('Now the parser.');
    expect(kept.some((text) => text.startsWith('Noted 1.'))).toBe(false);
    expect(conversation.coreHistory.filter(isPinned)).toHaveLength(2);
    // The pin is core's mark: the request carries the message as a plain user turn.
    await conversation.send('Go on.');
    const sent = (server.requests.at(-1)!.body as Anthropic.MessageCreateParamsNonStreaming).messages;
    expect(JSON.stringify(sent)).toContain('Use tabs, never spaces.');
    expect(JSON.stringify(sent)).not.toContain('pinned');
  });
});

describe('an Anthropic conversation with beforeCompaction', () => {
  const budget = {
    contextWindow: 4_000,
    reservedOutputTokens: 0,
    safetyMargin: 0,
    trigger: 0.5,
    target: 0.3,
  };
  const paths = ['src/a.ts', 'src/b.ts', 'src/c.ts'];
  const isNoteRequest = (received: { body: unknown }) =>
    JSON.stringify(received.body).includes(noteBeforeCompactionPrompt.slice(0, 40));

  /** Reads the files one per turn, writes `note` when asked for one, then answers. */
  function scriptNotes(note: { text: string; delayMs?: number }): void {
    let reads = 0;
    let answers = 0;
    server.handle('/v1/messages', (received) => {
      answers++;
      if (isNoteRequest(received)) {
        const reply = answerOf(received, answers, [{ type: 'text', text: note.text }]);
        return note.delayMs === undefined ? reply : { ...reply, delayMs: note.delayMs };
      }
      const path = paths[reads];
      if (path === undefined) return answerOf(received, answers, [{ type: 'text', text: 'Read them all.' }]);
      return answerOf(received, answers, [read(reads++, path)]);
    });
  }

  it('asks for a note before the automatic compaction and keeps it pinned through it', async () => {
    const note = 'Keep: src/a.ts exports the lexer; the failing test is lexer.test.ts.';
    scriptNotes({ text: note });
    const conversation = createAnthropicConversation({
      client,
      request,
      beforeCompaction: { maximumTokens: 200, timeoutMs: 5_000 },
      compaction: { strategy: createSlidingWindow(), budget },
    });
    const notes: unknown[] = [];
    conversation.on('note', (event) => notes.push(event));
    const historyAtRequest: number[] = [];
    conversation.on('request', () => historyAtRequest.push(conversation.history.length));
    await conversation.run('Read the three modules.', {
      runTool: (call) => readFileOutput((call.input as { path: string }).path),
    });

    const noteRequests = server.requests.filter(isNoteRequest);
    expect(noteRequests.length).toBeGreaterThan(0);
    expect(conversation.compactions.length).toBeGreaterThan(0);
    const first = noteRequests[0]!.body as Anthropic.MessageCreateParamsNonStreaming;
    expect(first).toMatchObject({ max_tokens: 200, tool_choice: { type: 'none' } });
    expect(notes[0]).toMatchObject({ status: 'written', text: note });
    // The note is a pinned user turn of the conversation, and the compacted requests still carry it.
    expect(conversation.coreHistory.filter(isPinned).length).toBe(noteRequests.length);
    const afterCompaction = server.requests.filter((received) => !isNoteRequest(received)).at(-1)!;
    expect(JSON.stringify(afterCompaction.body)).toContain(note);
    const turns = server.requests.filter((received) => !isNoteRequest(received));
    turns.forEach((received, index) => {
      const body = received.body as Anthropic.MessageCreateParamsNonStreaming;
      const original = { ...body, messages: conversation.history.slice(0, historyAtRequest[index]) };
      expect(compactedRequestViolations('anthropic', original, body)).toEqual([]);
    });
    for (const received of noteRequests) expect(anthropicMessagesViolations(received.body)).toEqual([]);
  });

  it('reports a note turn that times out and compacts all the same', async () => {
    scriptNotes({ text: 'too late', delayMs: 1_000 });
    const conversation = createAnthropicConversation({
      client,
      request,
      beforeCompaction: { timeoutMs: 100 },
      compaction: { strategy: createSlidingWindow(), budget },
    });
    const notes: { status: string; error?: unknown }[] = [];
    conversation.on('note', (event) => notes.push(event));
    await conversation.run('Read the three modules.', {
      runTool: (call) => readFileOutput((call.input as { path: string }).path),
    });
    expect(notes[0]?.status).toBe('failed');
    expect(NoteTimeoutError.isInstance(notes[0]?.error)).toBe(true);
    expect(conversation.compactions.length).toBeGreaterThan(0);
    expect(conversation.coreHistory.some(isPinned)).toBe(false);
  });
});

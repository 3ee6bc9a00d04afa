import Anthropic from '@anthropic-ai/sdk';
import {
  anthropicProfile,
  type CompactionEvent,
  ContextOverflowError,
  compactionMetadataOf,
  createFastEstimator,
  createStrategyRegistry,
  InvalidMessagesError,
  InvalidOptionsError,
  resolveCompactionConfig,
} from '@compaction/core';
import slidingWindow from '@compaction/strategy-sliding-window';
import toolResultTruncation from '@compaction/strategy-tool-result-truncation';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  anthropicRequestProblems,
  readFileOutput,
  requestTokens,
  type ScriptedExchange,
  scriptAgent,
} from './__fixtures__/anthropic-conversation-script.js';
import { type AnthropicConversationEvents, createAnthropicConversation } from './index.js';

const estimator = createFastEstimator({ profile: anthropicProfile });
const contextWindow = 24_000;

let server: TestServer;
let client: Anthropic;

beforeEach(async () => {
  server = await startTestServer();
  client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
});
afterEach(() => server.close());

async function compaction() {
  const registry = createStrategyRegistry({ definitions: [toolResultTruncation, slidingWindow] });
  const resolved = await resolveCompactionConfig(
    { strategy: ['tool-result-truncation', 'sliding-window'] },
    registry,
  );
  return { ...resolved, estimator, budget: { contextWindow } };
}

const tools: Anthropic.Tool[] = [
  {
    name: 'read_file',
    description: 'Reads a file of the repository.',
    input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
];

function pathOf(call: { input: unknown }): string {
  return (call.input as { path: string }).path;
}

/** Records every event of a conversation. */
function record(conversation: ReturnType<typeof createAnthropicConversation>) {
  const compactions: Array<AnthropicConversationEvents['compaction']> = [];
  const overflows: Array<AnthropicConversationEvents['overflow']> = [];
  const requests: Array<AnthropicConversationEvents['request']> = [];
  conversation.on('compaction', (event) => compactions.push(event));
  conversation.on('overflow', (event) => overflows.push(event));
  conversation.on('request', (event) => requests.push(event));
  return { compactions, overflows, requests };
}

describe('an Anthropic conversation over the real SDK', () => {
  it('compacts a long tool loop at the right steps, recovers one overflow and sends only valid requests', async () => {
    const toolSteps = 16;
    const exchanges = scriptAgent(server, {
      toolSteps,
      overflowAt: [11],
      parallelEvery: 5,
      estimator,
      contextWindow,
    });
    const initial: Anthropic.MessageParam[] = [
      { role: 'user', content: 'Read the modules one by one and prepare the refactoring.' },
    ];
    const system: Anthropic.TextBlockParam[] = [{ type: 'text', text: 'You are a careful coding agent.' }];
    const snapshot = structuredClone({ initial, system, tools });

    const conversation = createAnthropicConversation({
      client,
      system,
      messages: initial,
      request: { model: 'claude-sonnet-5-5', max_tokens: 1_024, tools },
      compaction: await compaction(),
    });
    const events = record(conversation);
    const { trigger, target } = conversation.compactor.budget;

    let response = await conversation.send();
    const outputs = new Map<string, string>();
    while (response.stop_reason === 'tool_use') {
      const results = conversation.pendingToolCalls.map((call) => {
        const content = readFileOutput(pathOf(call));
        outputs.set(call.id, content);
        return { toolUseId: call.id, content };
      });
      conversation.addToolResults(results);
      response = await conversation.send();
    }

    // The loop ran to the end: one answer per step, one refused attempt.
    expect(response.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('ready') });
    const answered = exchanges.filter((exchange) => !exchange.overflowed);
    expect(answered).toHaveLength(toolSteps + 1);
    expect(exchanges).toHaveLength(toolSteps + 2);

    // Every request sent is valid for the Messages API.
    for (const exchange of exchanges) expect(anthropicRequestProblems(exchange.request.body)).toEqual([]);

    // The trigger was crossed several times; each time the next request shrank.
    const auto = events.compactions.filter(({ event }) => event.trigger === 'auto');
    expect(auto.length).toBeGreaterThanOrEqual(3);
    const compactedSteps = new Set(auto.map(({ step }) => step));
    const sentAt = (step: number): ScriptedExchange => answered[step - 1]!;
    for (const { step, event } of auto) {
      expect(event.tokensBefore).toBeGreaterThan(trigger!);
      expect(event.tokensAfter).toBeLessThanOrEqual(target);
      const firstAttempt = exchanges.find((exchange) => exchange.answer === step)!;
      expect(firstAttempt.inputTokens).toBeLessThan(sentAt(step - 1).inputTokens);
    }
    // ...and no compaction happened while under the trigger: requests grew until they crossed it. The count
    // is anchored on the reported usage (mostly cache reads), so it matches the server's count.
    for (let step = 2; step <= toolSteps + 1; step++) {
      if (compactedSteps.has(step) || step === 11) continue;
      expect(sentAt(step).inputTokens).toBeGreaterThan(sentAt(step - 1).inputTokens);
      expect(sentAt(step).inputTokens).toBeLessThanOrEqual(trigger! * 1.02);
    }

    // The overflow at answer 11 was recovered exactly once, with a smaller retry.
    expect(events.overflows).toHaveLength(1);
    expect(ContextOverflowError.isInstance(events.overflows[0]!.error)).toBe(true);
    const overflowCompactions = events.compactions.filter(({ event }) => event.trigger === 'overflow');
    expect(overflowCompactions.map(({ step }) => step)).toEqual([11]);
    const [refused, retried] = exchanges.filter((exchange) => exchange.answer === 11);
    expect(refused!.overflowed).toBe(true);
    expect(retried!.overflowed).toBe(false);
    expect(retried!.inputTokens).toBeLessThan(refused!.inputTokens);
    expect(events.requests.filter((request) => request.attempt === 2).map(({ step }) => step)).toEqual([11]);
    expect(conversation.compactions).toEqual(events.compactions.map(({ event }) => event));

    // The caller's arrays are untouched.
    expect({ initial, system, tools }).toEqual(snapshot);
    expect(Object.isFrozen(initial[0])).toBe(false);

    // The full history is intact: every turn, every tool output verbatim, no compaction marks.
    const history = conversation.history;
    expect(history).toHaveLength(1 + 2 * toolSteps + 1);
    expect(history[0]).toEqual(initial[0]);
    const results = history.flatMap((message): Anthropic.ToolResultBlockParam[] =>
      typeof message.content === 'string'
        ? []
        : message.content.flatMap((block) =>
            block.type === 'tool_result' ? [block as Anthropic.ToolResultBlockParam] : [],
          ),
    );
    expect(results).toHaveLength(outputs.size);
    for (const result of results) expect(result.content).toBe(outputs.get(result.tool_use_id));
    expect(conversation.coreHistory.every((message) => compactionMetadataOf(message) === undefined)).toBe(
      true,
    );
    // ...while the working context is compacted and what the last request carried.
    expect(conversation.coreContext.some((message) => compactionMetadataOf(message) !== undefined)).toBe(
      true,
    );
    const lastBody = answered.at(-1)!.request.body as { messages: unknown[] };
    expect(conversation.context.messages.slice(0, -1)).toEqual(lastBody.messages);
    expect(requestTokens(lastBody, estimator)).toBeLessThan(
      requestTokens({ system, messages: history }, estimator) / 2,
    );
  });

  it('counts cache reads and writes as input: ignoring them would let the context grow past the trigger', async () => {
    // The same loop as above with a budget the uncached share alone never crosses.
    const exchanges = scriptAgent(server, { toolSteps: 8, estimator });
    const conversation = createAnthropicConversation({
      client,
      messages: [{ role: 'user', content: 'Read everything.' }],
      request: { model: 'claude-sonnet-5-5', max_tokens: 1_024 },
      compaction: await compaction(),
    });
    await conversation.run(undefined, { runTool: (call) => readFileOutput(pathOf(call)) });
    expect(conversation.compactions.length).toBeGreaterThanOrEqual(1);
    const trigger = conversation.compactor.budget.trigger!;
    for (const exchange of exchanges) expect(exchange.inputTokens).toBeLessThanOrEqual(trigger * 1.02);
  });

  it('throws a ContextOverflowError when the retry is refused too, after exactly two requests', async () => {
    server.handle('/v1/messages', () => ({
      status: 400,
      body: {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'prompt is too long: 90000 tokens > 20000 maximum' },
      },
    }));
    const initial = longToolHistory(4);
    const conversation = createAnthropicConversation({
      client,
      messages: initial,
      request: { model: 'claude-sonnet-5-5', max_tokens: 1_024 },
      compaction: await compaction(),
    });
    const events = record(conversation);

    const failure = await conversation.send('Summarize what you found.').catch((error: unknown) => error);
    expect(ContextOverflowError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ requestTokens: 90_000, maximumTokens: 20_000 });
    expect(server.requests).toHaveLength(2);
    expect(events.overflows).toHaveLength(1);
    expect(events.compactions.map(({ event }) => event.trigger)).toEqual(['overflow']);
    // The user turn stays in the history, without an answer; the caller's array is unchanged.
    expect(conversation.history).toHaveLength(initial.length + 1);
    expect(initial).toEqual(longToolHistory(4));
  });

  it('passes other SDK errors through unchanged, without compacting', async () => {
    server.handle('/v1/messages', () => ({
      status: 429,
      body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
    }));
    const conversation = createAnthropicConversation({
      client,
      request: { model: 'claude-sonnet-5-5', max_tokens: 256 },
      compaction: await compaction(),
    });
    await expect(conversation.send('Hello')).rejects.toBeInstanceOf(Anthropic.RateLimitError);
    expect(server.requests).toHaveLength(1);
    expect(conversation.compactions).toEqual([]);
  });

  it('refuses turns that break tool pairing before sending anything', async () => {
    scriptAgent(server, { toolSteps: 3, estimator });
    const conversation = createAnthropicConversation({
      client,
      request: { model: 'claude-sonnet-5-5', max_tokens: 256 },
      compaction: await compaction(),
    });
    await conversation.send('Start.');
    const pending = conversation.pendingToolCalls;
    expect(pending).toHaveLength(1);
    await expect(conversation.send('Never mind.')).rejects.toBeInstanceOf(InvalidMessagesError);
    await expect(conversation.send()).rejects.toBeInstanceOf(InvalidMessagesError);
    expect(() => conversation.addToolResults([{ toolUseId: 'toolu_unknown', content: 'x' }])).toThrow(
      InvalidMessagesError,
    );
    expect(server.requests).toHaveLength(1);
    conversation.addToolResults([{ toolUseId: pending[0]!.id, content: 'done' }]);
    await conversation.send();
    expect(server.requests).toHaveLength(2);
  });

  it('runs a whole loop with run(): tool errors become error results, per-call request fields apply', async () => {
    scriptAgent(server, { toolSteps: 2, estimator });
    const conversation = createAnthropicConversation({
      client,
      request: { model: 'claude-sonnet-5-5', max_tokens: 256 },
      compaction: await compaction(),
    });
    const response = await conversation.run('Go.', {
      runTool: (call) => {
        if (pathOf(call).includes('-1-')) throw new Error('permission denied');
        return 'file contents';
      },
      request: { stop_sequences: ['END'] },
    });
    expect(response.stop_reason).toBe('end_turn');
    const bodies = server.requests.map((request) => request.body as Record<string, unknown>);
    expect(
      bodies.every((body) => (body.stop_sequences as string[])[0] === 'END' && body.max_tokens === 256),
    ).toBe(true);
    expect((bodies[1]!.messages as Array<{ content: unknown }>)[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1_0', content: 'permission denied', is_error: true },
    ]);
  });

  it('takes exactly one of compactor and compaction', () => {
    const request = { model: 'claude-sonnet-5-5', max_tokens: 256 };
    expect(() => createAnthropicConversation({ client, request })).toThrow(InvalidOptionsError);
  });

  it('compacts on demand with compact(), leaving the history whole', async () => {
    const initial = longToolHistory(6);
    const conversation = createAnthropicConversation({
      client,
      messages: initial,
      request: { model: 'claude-sonnet-5-5', max_tokens: 1_024 },
      compaction: await compaction(),
    });
    const seen: CompactionEvent[] = [];
    conversation.on('compaction', ({ event }) => seen.push(event));
    const result = await conversation.compact({ instructions: 'keep the file names' });
    expect(result.compacted).toBe(true);
    expect(seen.map((event) => event.trigger)).toEqual(['manual']);
    expect(conversation.history).toEqual(initial);
    expect(conversation.compactor.counter.count(conversation.coreContext)).toBeLessThan(
      conversation.compactor.counter.count(conversation.coreHistory),
    );
  });
});

/** A history of `calls` finished `read_file` calls with large outputs, ending with the assistant. */
function longToolHistory(calls: number): Anthropic.MessageParam[] {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Read the modules.' }];
  for (let index = 0; index < calls; index++) {
    const id = `toolu_history_${index}`;
    const path = `src/history-${index}.ts`;
    messages.push(
      { role: 'assistant', content: [{ type: 'tool_use', id, name: 'read_file', input: { path } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: readFileOutput(path) }] },
    );
  }
  messages.push({ role: 'assistant', content: 'I have read them all.' });
  return messages;
}

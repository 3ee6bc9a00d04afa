import {
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
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  chatRequestProblems,
  chatRequestTokens,
  readFileOutput,
  type ScriptedExchange,
  scriptChatAgent,
} from './__fixtures__/openai-conversation-script.js';
import { createOpenAIConversation, type OpenAIConversation } from './index.js';

const estimator = createFastEstimator();
const contextWindow = 16_000;
const model = 'gpt-5.4';

let server: TestServer;
let client: OpenAI;

beforeEach(async () => {
  server = await startTestServer();
  client = new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1`, maxRetries: 0 });
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

const tools: OpenAI.Chat.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'read_file',
      description: 'Reads a file of the repository.',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  },
];

function pathOf(call: OpenAI.Chat.ChatCompletionMessageFunctionToolCall): string {
  return (JSON.parse(call.function.arguments) as { path: string }).path;
}

function record(conversation: OpenAIConversation) {
  const compactions: Array<{ step: number; event: CompactionEvent }> = [];
  const overflows: Array<{ step: number; error: ContextOverflowError }> = [];
  const attempts: Array<{ step: number; attempt: number }> = [];
  conversation.on('compaction', (event) => compactions.push(event));
  conversation.on('overflow', (event) => overflows.push(event));
  conversation.on('request', ({ step, attempt }) => attempts.push({ step, attempt }));
  return { compactions, overflows, attempts };
}

describe('an OpenAI Chat Completions conversation over the real SDK', () => {
  it('compacts a long tool loop at the right steps, recovers one overflow and sends only valid requests', async () => {
    const toolSteps = 16;
    const exchanges = scriptChatAgent(server, {
      toolSteps,
      overflowAt: [11],
      parallelEvery: 5,
      estimator,
      contextWindow,
    });
    const initial: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'developer', content: 'You are a careful coding agent.' },
      { role: 'user', content: 'Read the modules one by one and prepare the refactoring.' },
    ];
    const snapshot = structuredClone({ initial, tools });

    const conversation = createOpenAIConversation({
      client,
      messages: initial,
      request: { model, max_completion_tokens: 1_024, tools },
      compaction: await compaction(),
    });
    const events = record(conversation);
    const { trigger, target } = conversation.compactor.budget;

    let completion = await conversation.send();
    const outputs = new Map<string, string>();
    while (completion.choices[0]!.finish_reason === 'tool_calls') {
      const results = conversation.pendingToolCalls.map((call) => {
        const content = readFileOutput(pathOf(call));
        outputs.set(call.id, content);
        return { toolCallId: call.id, content };
      });
      conversation.addToolResults(results);
      completion = await conversation.send();
    }

    expect(completion.choices[0]!.message.content).toContain('ready');
    const answered = exchanges.filter((exchange) => !exchange.overflowed);
    expect(answered).toHaveLength(toolSteps + 1);
    expect(exchanges).toHaveLength(toolSteps + 2);

    // Every request sent is valid for Chat Completions, and keeps the developer message first.
    for (const exchange of exchanges) {
      expect(chatRequestProblems(exchange.request.body)).toEqual([]);
      expect((exchange.request.body as { messages: unknown[] }).messages[0]).toEqual(initial[0]);
    }

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
    for (let step = 2; step <= toolSteps + 1; step++) {
      if (compactedSteps.has(step) || step === 11) continue;
      expect(sentAt(step).inputTokens).toBeGreaterThan(sentAt(step - 1).inputTokens);
      expect(sentAt(step).inputTokens).toBeLessThanOrEqual(trigger! * 1.02);
    }

    expect(events.overflows).toHaveLength(1);
    expect(events.overflows[0]!.error).toMatchObject({ maximumTokens: contextWindow });
    const overflowCompactions = events.compactions.filter(({ event }) => event.trigger === 'overflow');
    expect(overflowCompactions.map(({ step }) => step)).toEqual([11]);
    const [refused, retried] = exchanges.filter((exchange) => exchange.answer === 11);
    expect(refused!.overflowed).toBe(true);
    expect(retried!.inputTokens).toBeLessThan(refused!.inputTokens);
    expect(events.attempts.filter(({ attempt }) => attempt === 2).map(({ step }) => step)).toEqual([11]);

    expect({ initial, tools }).toEqual(snapshot);
    expect(Object.isFrozen(initial[0])).toBe(false);

    const history = conversation.history;
    expect(history.slice(0, 2)).toEqual(initial);
    expect(history.filter((message) => message.role === 'assistant')).toHaveLength(toolSteps + 1);
    const results = history.filter((message) => message.role === 'tool');
    expect(results).toHaveLength(outputs.size);
    for (const result of results) expect(result.content).toBe(outputs.get(result.tool_call_id));
    expect(conversation.coreHistory.every((message) => compactionMetadataOf(message) === undefined)).toBe(
      true,
    );
    expect(conversation.coreContext.some((message) => compactionMetadataOf(message) !== undefined)).toBe(
      true,
    );
    const lastBody = answered.at(-1)!.request.body as { messages: unknown[] };
    expect(conversation.context.slice(0, -1)).toEqual(lastBody.messages);
    expect(chatRequestTokens(lastBody, estimator)).toBeLessThan(
      chatRequestTokens({ messages: history }, estimator) / 2,
    );
  });

  it('anchors counts on the reported prompt tokens: a tokenizer counting 30% more than the estimate', async () => {
    const exchanges = scriptChatAgent(server, { toolSteps: 12, estimator, usageScale: 1.3 });
    const conversation = createOpenAIConversation({
      client,
      messages: [{ role: 'user', content: 'Read everything.' }],
      request: { model, max_completion_tokens: 1_024 },
      compaction: await compaction(),
    });
    await conversation.run(undefined, { runTool: (call) => readFileOutput(pathOf(call)) });
    expect(conversation.compactions.length).toBeGreaterThanOrEqual(2);
    // Counted from estimates alone, requests would reach 1.3 times the trigger before compacting.
    const trigger = conversation.compactor.budget.trigger!;
    for (const exchange of exchanges) expect(exchange.inputTokens).toBeLessThanOrEqual(trigger * 1.1);
  });

  it('throws a ContextOverflowError when the retry is refused too, after exactly two requests', async () => {
    server.handle('/v1/chat/completions', () => ({
      status: 400,
      body: {
        error: {
          message:
            "This model's maximum context length is 20000 tokens. However, your messages resulted in 90000 tokens.",
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      },
    }));
    const initial = longToolHistory(4);
    const conversation = createOpenAIConversation({
      client,
      messages: initial,
      request: { model, max_completion_tokens: 1_024 },
      compaction: await compaction(),
    });
    const events = record(conversation);
    const failure = await conversation.send('Summarize what you found.').catch((error: unknown) => error);
    expect(ContextOverflowError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ requestTokens: 90_000, maximumTokens: 20_000 });
    expect(server.requests).toHaveLength(2);
    expect(events.compactions.map(({ event }) => event.trigger)).toEqual(['overflow']);
    expect(conversation.history).toHaveLength(initial.length + 1);
    expect(initial).toEqual(longToolHistory(4));
  });

  it('passes other SDK errors through unchanged, without compacting', async () => {
    server.handle('/v1/chat/completions', () => ({
      status: 429,
      body: { error: { message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' } },
    }));
    const conversation = createOpenAIConversation({
      client,
      request: { model },
      compaction: await compaction(),
    });
    await expect(conversation.send('Hello')).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    expect(server.requests).toHaveLength(1);
    expect(conversation.compactions).toEqual([]);
  });

  it('refuses turns that break tool pairing before sending anything', async () => {
    scriptChatAgent(server, { toolSteps: 3, estimator });
    const conversation = createOpenAIConversation({
      client,
      request: { model },
      compaction: await compaction(),
    });
    await conversation.send('Start.');
    const pending = conversation.pendingToolCalls;
    expect(pending).toHaveLength(1);
    await expect(conversation.send('Never mind.')).rejects.toBeInstanceOf(InvalidMessagesError);
    await expect(conversation.send()).rejects.toBeInstanceOf(InvalidMessagesError);
    expect(() => conversation.addToolResults([{ toolCallId: 'call_unknown', content: 'x' }])).toThrow(
      InvalidMessagesError,
    );
    expect(() => conversation.addUserMessage({ role: 'assistant', content: 'forged' })).toThrow(
      InvalidMessagesError,
    );
    expect(server.requests).toHaveLength(1);
    conversation.addToolResults([{ toolCallId: pending[0]!.id, content: 'done' }]);
    await conversation.send();
    expect(server.requests).toHaveLength(2);
  });

  it('runs a whole loop with run(): tool errors become error text, per-call request fields apply', async () => {
    scriptChatAgent(server, { toolSteps: 2, estimator });
    const conversation = createOpenAIConversation({
      client,
      request: { model, max_completion_tokens: 256 },
      compaction: await compaction(),
    });
    const completion = await conversation.run('Go.', {
      runTool: (call) => {
        if (pathOf(call).includes('-1-')) throw new Error('permission denied');
        return 'file contents';
      },
      request: { temperature: 0 },
    });
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    const bodies = server.requests.map((request) => request.body as Record<string, unknown>);
    expect(bodies.every((body) => body.temperature === 0 && body.max_completion_tokens === 256)).toBe(true);
    expect((bodies[1]!.messages as unknown[])[2]).toEqual({
      role: 'tool',
      tool_call_id: 'call_1_0',
      content: 'Error: permission denied',
    });
  });

  it('takes exactly one of compactor and compaction', () => {
    expect(() => createOpenAIConversation({ client, request: { model } })).toThrow(InvalidOptionsError);
  });

  it('compacts on demand with compact(), leaving the history whole', async () => {
    const initial = longToolHistory(6);
    const conversation = createOpenAIConversation({
      client,
      messages: initial,
      request: { model },
      compaction: await compaction(),
    });
    const result = await conversation.compact();
    expect(result.compacted).toBe(true);
    expect(conversation.compactions.map((event) => event.trigger)).toEqual(['manual']);
    expect(conversation.history).toEqual(initial);
    expect(conversation.compactor.counter.count(conversation.coreContext)).toBeLessThan(
      conversation.compactor.counter.count(conversation.coreHistory),
    );
  });
});

/** A history of `calls` finished `read_file` calls with large outputs, ending with the assistant. */
function longToolHistory(calls: number): OpenAI.Chat.ChatCompletionMessageParam[] {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Read the modules.' }];
  for (let index = 0; index < calls; index++) {
    const id = `call_history_${index}`;
    const path = `src/history-${index}.ts`;
    messages.push(
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path }) } },
        ],
      },
      { role: 'tool', tool_call_id: id, content: readFileOutput(path) },
    );
  }
  messages.push({ role: 'assistant', content: 'I have read them all.' });
  return messages;
}

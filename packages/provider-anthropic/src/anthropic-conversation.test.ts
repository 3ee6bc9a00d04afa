import Anthropic from '@anthropic-ai/sdk';
import {
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
import { recordConversationEvents } from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { describeConversationRecovery, expectCompactionSchedule } from '@compaction/testing/vitest';
import { anthropicProfile } from '@compaction/token-estimator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  anthropicRequestProblems,
  readFileOutput,
  requestTokens,
  scriptAgent,
} from './__fixtures__/anthropic-conversation-script.js';
import { createAnthropicConversation } from './index.js';

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
    const events = recordConversationEvents(conversation);

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
    // Every request sent is valid for the Messages API.
    for (const exchange of exchanges) expect(anthropicRequestProblems(exchange.request.body)).toEqual([]);

    // The trigger was crossed several times; each time the next request shrank. No compaction happened
    // while under the trigger: requests grew until they crossed it. The count is anchored on the reported
    // usage (mostly cache reads), so it matches the server's count. The overflow at answer 11 was
    // recovered exactly once, with a smaller retry.
    const answered = expectCompactionSchedule({
      exchanges,
      compactions: events.compactions,
      requests: events.requests,
      budget: conversation.compactor.budget,
      toolSteps,
      overflowStep: 11,
      minimumAutoCompactions: 3,
    });
    expect(events.overflows).toHaveLength(1);
    expect(ContextOverflowError.isInstance(events.overflows[0]!.error)).toBe(true);
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

  describeConversationRecovery({
    server: () => server,
    path: '/v1/messages',
    refusal: {
      status: 400,
      body: {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'prompt is too long: 90000 tokens > 20000 maximum' },
      },
    },
    rateLimited: {
      status: 429,
      body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
    },
    rateLimitError: Anthropic.RateLimitError,
    longToolHistory,
    create: async (messages) =>
      createAnthropicConversation({
        client,
        ...(messages === undefined ? {} : { messages }),
        request: { model: 'claude-sonnet-5-5', max_tokens: 1_024 },
        compaction: await compaction(),
      }),
  });

  it('takes exactly one of compactor and compaction', () => {
    const request = { model: 'claude-sonnet-5-5', max_tokens: 256 };
    expect(() => createAnthropicConversation({ client, request })).toThrow(InvalidOptionsError);
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

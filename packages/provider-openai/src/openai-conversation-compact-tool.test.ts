import { compactToolResultText } from '@compaction/agent-loop';
import { type CompactionStrategy, isPinned, type Message } from '@compaction/core';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { compactedRequestViolations, type ProviderRequestFormat } from '@compaction/testing';
import { countMessages, readFileOutput, type TestServer } from '@compaction/testing/loopback-server';
import type OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { estimator, model, startLoopbackOpenAI } from './__fixtures__/openai-conversation-setup.js';
import {
  createOpenAIConversation,
  createOpenAIResponsesConversation,
  fromOpenAIChatMessages,
  fromOpenAIResponsesInput,
} from './index.js';

let server: TestServer;
let client: OpenAI;

beforeEach(async () => {
  ({ server, client } = await startLoopbackOpenAI());
});
afterEach(() => server.close());

const parameters = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
const instructions = 'The reading phase ended: keep that src/b.ts holds the parser.';
const firstFile = 'src/a.ts:1: export const value1';

/** One answer of the scripted model: a tool call, or the final text. */
type Step = { tool: string; input: unknown } | { text: string };
const script: Step[] = [
  { tool: 'read_file', input: { path: 'src/a.ts' } },
  { tool: 'read_file', input: { path: 'src/b.ts' } },
  { tool: 'compact', input: { instructions } },
  { text: 'The parser is in src/b.ts.' },
];

/** One API as the scripted model speaks it: its path, its conversation as core messages, its answers. */
interface ScriptedApi {
  format: ProviderRequestFormat;
  path: string;
  field: 'messages' | 'input';
  messagesOf(body: Record<string, unknown>): Message[];
  reply(step: Step, answer: number, inputTokens: number): unknown;
}

const chat: ScriptedApi = {
  format: 'openai-chat',
  path: '/v1/chat/completions',
  field: 'messages',
  messagesOf: (body) => fromOpenAIChatMessages(body.messages as OpenAI.Chat.ChatCompletionMessageParam[]),
  reply: (step, answer, inputTokens) => ({
    id: `chatcmpl_${answer}`,
    object: 'chat.completion',
    created: 1_800_000_000,
    model,
    choices: [
      {
        index: 0,
        finish_reason: 'text' in step ? 'stop' : 'tool_calls',
        logprobs: null,
        message:
          'text' in step
            ? { role: 'assistant', content: step.text, refusal: null }
            : {
                role: 'assistant',
                content: null,
                refusal: null,
                tool_calls: [
                  {
                    id: `call_${answer}`,
                    type: 'function',
                    function: { name: step.tool, arguments: JSON.stringify(step.input) },
                  },
                ],
              },
      },
    ],
    usage: { prompt_tokens: inputTokens, completion_tokens: 20, total_tokens: inputTokens + 20 },
  }),
};

const responses: ScriptedApi = {
  format: 'openai-responses',
  path: '/v1/responses',
  field: 'input',
  messagesOf: (body) => fromOpenAIResponsesInput(body.input as never),
  reply: (step, answer, inputTokens) => ({
    id: `resp_${answer}`,
    object: 'response',
    created_at: 1_800_000_000,
    model,
    status: 'completed',
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    error: null,
    incomplete_details: null,
    output: [
      'text' in step
        ? {
            type: 'message',
            id: `msg_${answer}`,
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text: step.text, annotations: [] }],
          }
        : {
            type: 'function_call',
            id: `fc_${answer}`,
            call_id: `call_${answer}`,
            name: step.tool,
            arguments: JSON.stringify(step.input),
            status: 'completed',
          },
    ],
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: inputTokens + 20,
    },
  }),
};

function scriptModel(api: ScriptedApi, steps: readonly Step[]): void {
  let answer = 0;
  server.handle(api.path, (received) => {
    const messages = api.messagesOf(received.body as Record<string, unknown>);
    const step = steps[Math.min(answer, steps.length - 1)]!;
    answer++;
    return { body: api.reply(step, answer, countMessages(messages, estimator)) };
  });
}

/** The sliding window, recording the instructions of each compaction. */
function recordingWindow(): { strategy: CompactionStrategy; seen: (string | undefined)[] } {
  const inner = createSlidingWindow();
  const seen: (string | undefined)[] = [];
  return {
    strategy: {
      ...inner,
      compact: (input) => {
        seen.push(input.instructions);
        return inner.compact(input);
      },
    },
    seen,
  };
}

/** What both APIs check once the loop ran: compacted once, forced, with the instructions; every request valid. */
function expectCompactedOnRequest(
  api: ScriptedApi,
  run: {
    conversation: { compactions: { trigger: string; instructions?: string; tokensBefore: number }[] };
    target: number;
    seen: (string | undefined)[];
    history: unknown[];
    historyAtRequest: number[];
  },
  toolNames: (tools: unknown[]) => Array<string | undefined>,
): void {
  const { compactions } = run.conversation;
  expect(compactions).toHaveLength(1);
  expect(compactions[0]).toMatchObject({ trigger: 'manual', instructions });
  expect(compactions[0]!.tokensBefore).toBeLessThan(run.target);
  expect(run.seen).toEqual([instructions]);
  const bodies = server.requests.map((received) => received.body as Record<string, unknown>);
  expect(bodies).toHaveLength(4);
  expect(JSON.stringify(bodies[3])).toContain(compactToolResultText.slice(0, 30));
  expect(JSON.stringify(bodies[2]).includes(firstFile)).toBe(true);
  expect(JSON.stringify(bodies[3]).includes(firstFile)).toBe(false);
  bodies.forEach((body, index) => {
    expect(toolNames(body.tools as unknown[])).toEqual(['read_file', 'compact']);
    const original = { ...body, [api.field]: run.history.slice(0, run.historyAtRequest[index]) };
    expect(compactedRequestViolations(api.format, original, body)).toEqual([]);
  });
}

const budget = { contextWindow: 200_000 };

describe('OpenAI conversations with compactTool', () => {
  it('Chat Completions: compacts when the model calls compact, forced under the target', async () => {
    scriptModel(chat, script);
    const { strategy, seen } = recordingWindow();
    const conversation = createOpenAIConversation({
      client,
      request: { model, tools: [{ type: 'function', function: { name: 'read_file', parameters } }] },
      messages: [{ role: 'system', content: 'You are a careful coding agent.' }],
      compactTool: true,
      compaction: { strategy, budget },
    });
    const historyAtRequest: number[] = [];
    conversation.on('request', () => historyAtRequest.push(conversation.history.length));
    await conversation.run('Find the parser.', {
      runTool: (call) => readFileOutput((JSON.parse(call.function.arguments) as { path: string }).path),
    });
    const target = conversation.compactor.budget.target;
    const history = conversation.history;
    expectCompactedOnRequest(chat, { conversation, target, seen, history, historyAtRequest }, (tools) =>
      (tools as OpenAI.Chat.ChatCompletionFunctionTool[]).map((tool) => tool.function.name),
    );
  });

  it('Responses: compacts when the model calls compact, forced under the target', async () => {
    scriptModel(responses, script);
    const { strategy, seen } = recordingWindow();
    const conversation = createOpenAIResponsesConversation({
      client,
      request: {
        model,
        instructions: 'You are a careful coding agent.',
        tools: [{ type: 'function', name: 'read_file', parameters, strict: false }],
      },
      compactTool: true,
      compaction: { strategy, budget },
    });
    const historyAtRequest: number[] = [];
    conversation.on('request', () => historyAtRequest.push(conversation.history.length));
    await conversation.run('Find the parser.', {
      runTool: (call) => readFileOutput((JSON.parse(call.arguments) as { path: string }).path),
    });
    const target = conversation.compactor.budget.target;
    const history = conversation.history;
    expectCompactedOnRequest(responses, { conversation, target, seen, history, historyAtRequest }, (tools) =>
      (tools as OpenAI.Responses.FunctionTool[]).map((tool) => tool.name),
    );
  });
});

describe('a pinned message of an OpenAI conversation', () => {
  it('Chat Completions: survives a compaction that removes the turns around it', async () => {
    scriptModel(chat, [{ text: `Noted. ${'detail '.repeat(200)}` }]);
    const conversation = createOpenAIConversation({
      client,
      request: { model },
      compaction: { strategy: createSlidingWindow(), budget },
    });
    await conversation.send('Start with the lexer.');
    await conversation.send('Use tabs, never spaces.', { pinned: true });
    await conversation.send('Now the parser.');
    await conversation.send('And the printer.');
    expect((await conversation.compact({ force: true })).compacted).toBe(true);
    const kept = JSON.stringify(conversation.context);
    expect(kept).toContain('Use tabs, never spaces.');
    expect(kept).not.toContain('Now the parser.');
    expect(conversation.coreContext.filter(isPinned)).toHaveLength(1);
  });

  it('Responses: survives a compaction that removes the turns around it', async () => {
    scriptModel(responses, [{ text: `Noted. ${'detail '.repeat(200)}` }]);
    const conversation = createOpenAIResponsesConversation({
      client,
      request: { model },
      compaction: { strategy: createSlidingWindow(), budget },
    });
    await conversation.send('Start with the lexer.');
    conversation.addUserMessage('Use tabs, never spaces.', { pinned: true });
    await conversation.send();
    await conversation.send('Now the parser.');
    await conversation.send('And the printer.');
    expect((await conversation.compact({ force: true })).compacted).toBe(true);
    const kept = JSON.stringify(conversation.context);
    expect(kept).toContain('Use tabs, never spaces.');
    expect(kept).not.toContain('Now the parser.');
  });
});

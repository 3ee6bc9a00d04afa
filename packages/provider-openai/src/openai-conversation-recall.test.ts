import { InMemoryCompactionStore, InvalidOptionsError, type Message } from '@compaction/core';
import {
  archivingMaskStrategy,
  compactedRequestViolations,
  nextRecallStep,
  type ProviderRequestFormat,
  type RecallScriptStep,
} from '@compaction/testing';
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

const paths = ['src/a.ts', 'src/b.ts', 'src/c.ts'];
const parameters = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
/** Three files cross the trigger; clearing the older ones brings the context far under it. */
const budget = { contextWindow: 4_000, reservedOutputTokens: 0, safetyMargin: 0, trigger: 0.5, target: 0.3 };
const compaction = (store: InMemoryCompactionStore) => ({
  strategy: archivingMaskStrategy(),
  budget,
  store,
  archive: true,
});
const firstOutput = readFileOutput(paths[0]!);
const finalText = `Recalled ${firstOutput.length} characters; it starts "${firstOutput.split('\n')[0]}".`;

/** One API as the scripted model speaks it: its path, its conversation as core messages, its answers. */
interface ScriptedApi {
  format: ProviderRequestFormat;
  path: string;
  messagesOf(body: Record<string, unknown>): Message[];
  reply(step: RecallScriptStep, answer: number, inputTokens: number): unknown;
}

const chat: ScriptedApi = {
  format: 'openai-chat',
  path: '/v1/chat/completions',
  messagesOf: (body) => fromOpenAIChatMessages(body.messages as OpenAI.Chat.ChatCompletionMessageParam[]),
  reply: (step, answer, inputTokens) => ({
    id: `chatcmpl_${answer}`,
    object: 'chat.completion',
    created: 1_800_000_000,
    model,
    choices: [
      {
        index: 0,
        finish_reason: step.kind === 'answer' ? 'stop' : 'tool_calls',
        logprobs: null,
        message:
          step.kind === 'answer'
            ? { role: 'assistant', content: step.text, refusal: null }
            : {
                role: 'assistant',
                content: null,
                refusal: null,
                tool_calls: [
                  {
                    id: `call_${answer}`,
                    type: 'function',
                    function: { name: step.toolName, arguments: JSON.stringify(step.input) },
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
      step.kind === 'answer'
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
            name: step.toolName,
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

/** The scripted model: reads the files, recalls what a placeholder names, answers. */
function scriptRecallModel(api: ScriptedApi): void {
  let answer = 0;
  server.handle(api.path, (received) => {
    answer++;
    const messages = api.messagesOf(received.body as Record<string, unknown>);
    const step = nextRecallStep(messages, paths);
    return { body: api.reply(step, answer, countMessages(messages, estimator)) };
  });
}

/** What both tests check once the loop ran: the recall answered exactly, every request offered it and was valid. */
async function expectRecalled(
  api: ScriptedApi,
  run: { called: string[]; historyAtRequest: number[]; history: unknown[]; store: InMemoryCompactionStore },
  recall: { handle: string; output: unknown },
  field: 'messages' | 'input',
  toolNames: (tools: unknown[]) => Array<string | undefined>,
): Promise<void> {
  // The user's handler ran the file reads only; the conversation answered the recall with the first file's
  // output, which the first placeholder had cleared.
  expect(run.called).toEqual(['read_file', 'read_file', 'read_file']);
  expect(recall.output).toBe(firstOutput);
  const archived = (await run.store.list('task-7')).flatMap((record) => record.archived ?? []);
  expect(archived.find((item) => item.handle === recall.handle)?.text).toBe(firstOutput);
  const bodies = server.requests.map((received) => received.body as Record<string, unknown>);
  expect(bodies.some((body) => JSON.stringify(body).includes(`recall \\"${recall.handle}\\"`))).toBe(true);
  bodies.forEach((body, index) => {
    expect(toolNames(body.tools as unknown[])).toEqual(['read_file', 'recall']);
    const original = { ...body, [field]: run.history.slice(0, run.historyAtRequest[index]) };
    expect(compactedRequestViolations(api.format, original, body)).toEqual([]);
  });
}

describe('OpenAI conversations whose compactor archives', () => {
  it('Chat Completions: offers recall, answers with a tool message holding the cleared output, runs to the end', async () => {
    scriptRecallModel(chat);
    const store = new InMemoryCompactionStore();
    const tools: OpenAI.Chat.ChatCompletionFunctionTool[] = [
      { type: 'function', function: { name: 'read_file', parameters } },
    ];
    const conversation = createOpenAIConversation({
      client,
      request: { model, tools },
      messages: [{ role: 'system', content: 'You are a careful coding agent.' }],
      sessionId: 'task-7',
      compaction: compaction(store),
    });
    const historyAtRequest: number[] = [];
    conversation.on('request', () => historyAtRequest.push(conversation.history.length));
    const called: string[] = [];
    const response = await conversation.run('Read the three modules, then report.', {
      runTool: (call) => {
        called.push(call.function.name);
        return readFileOutput((JSON.parse(call.function.arguments) as { path: string }).path);
      },
    });
    expect(response.choices[0]?.message.content).toBe(finalText);
    expect(conversation.compactions.length).toBeGreaterThan(0);
    const history = conversation.history;
    const call = history
      .flatMap((message) => (message.role === 'assistant' ? (message.tool_calls ?? []) : []))
      .find((toolCall) => toolCall.type === 'function' && toolCall.function.name === 'recall');
    const handle = (
      JSON.parse((call as OpenAI.Chat.ChatCompletionMessageFunctionToolCall).function.arguments) as {
        handle: string;
      }
    ).handle;
    const answer = history.find((message) => message.role === 'tool' && message.tool_call_id === call?.id);
    await expectRecalled(
      chat,
      { called, historyAtRequest, history, store },
      { handle, output: answer?.content },
      'messages',
      (entries) => (entries as OpenAI.Chat.ChatCompletionFunctionTool[]).map((tool) => tool.function.name),
    );
  });

  it('Responses: offers recall, answers with a function_call_output holding the cleared output, runs to the end', async () => {
    scriptRecallModel(responses);
    const store = new InMemoryCompactionStore();
    const tools: OpenAI.Responses.FunctionTool[] = [
      { type: 'function', name: 'read_file', parameters, strict: true },
    ];
    const conversation = createOpenAIResponsesConversation({
      client,
      request: { model, tools, instructions: 'You are a careful coding agent.' },
      sessionId: 'task-7',
      compaction: compaction(store),
    });
    const historyAtRequest: number[] = [];
    conversation.on('request', () => historyAtRequest.push(conversation.history.length));
    const called: string[] = [];
    const response = await conversation.run('Read the three modules, then report.', {
      runTool: (call) => {
        called.push(call.name);
        return readFileOutput((JSON.parse(call.arguments) as { path: string }).path);
      },
    });
    expect(response.output_text).toBe(finalText);
    expect(conversation.compactions.length).toBeGreaterThan(0);
    const history = conversation.history;
    const call = history.find((item) => item.type === 'function_call' && item.name === 'recall') as
      | OpenAI.Responses.ResponseFunctionToolCall
      | undefined;
    const handle = (JSON.parse(call!.arguments) as { handle: string }).handle;
    const answer = history.find(
      (item) => item.type === 'function_call_output' && item.call_id === call?.call_id,
    );
    await expectRecalled(
      responses,
      { called, historyAtRequest, history, store },
      { handle, output: (answer as OpenAI.Responses.ResponseInputItem.FunctionCallOutput).output },
      'input',
      (entries) => (entries as OpenAI.Responses.FunctionTool[]).map((tool) => tool.name),
    );
    const offered = (server.requests[0]!.body as { tools: OpenAI.Responses.FunctionTool[] }).tools[1];
    expect(offered).toMatchObject({ type: 'function', name: 'recall', strict: false });
  });

  it('refuses a request tool named recall, and answers arguments that are not JSON with an error output', async () => {
    const store = new InMemoryCompactionStore();
    const create = () =>
      createOpenAIResponsesConversation({
        client,
        request: { model, tools: [{ type: 'function', name: 'recall', parameters, strict: true }] },
        compaction: compaction(store),
      });
    expect(create).toThrow(InvalidOptionsError);

    const conversation = createOpenAIConversation({
      client,
      request: { model },
      compaction: compaction(store),
    });
    const reply = chat.reply({ kind: 'call', toolName: 'recall', input: { handle: 'x' } }, 1, 50) as {
      choices: Array<{ message: { tool_calls: Array<{ function: { arguments: string } }> } }>;
    };
    reply.choices[0]!.message.tool_calls[0]!.function.arguments = '{"handle": ';
    server.enqueue(chat.path, { body: reply });
    await conversation.send('Go.');
    const [result] = await conversation.recallResults();
    expect(result).toEqual({
      toolCallId: 'call_1',
      content: expect.stringMatching(/^Error: recall: the arguments/),
    });
  });
});

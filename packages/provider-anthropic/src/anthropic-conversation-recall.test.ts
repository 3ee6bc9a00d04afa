import Anthropic from '@anthropic-ai/sdk';
import { createFastEstimator, InMemoryCompactionStore, InvalidOptionsError } from '@compaction/core';
import { archivingMaskStrategy, compactedRequestViolations, nextRecallStep } from '@compaction/testing';
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

const paths = ['src/a.ts', 'src/b.ts', 'src/c.ts'];
const readFile: Anthropic.Tool = {
  name: 'read_file',
  description: 'Reads a file of the repository.',
  input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};
const request = { model: 'claude-sonnet-5-5', max_tokens: 512, tools: [readFile] };
/** Three files of 60 lines cross the trigger; clearing the older ones brings the context far under it. */
const budget = { contextWindow: 4_000, reservedOutputTokens: 0, safetyMargin: 0, trigger: 0.5, target: 0.3 };

/** The scripted model on `/v1/messages`: reads the files, recalls what a placeholder names, answers. */
function scriptRecallModel(): void {
  let answer = 0;
  server.handle('/v1/messages', (received) => {
    answer++;
    const messages = fromAnthropicRequest(received.body as never);
    const step = nextRecallStep(messages, paths);
    const content =
      step.kind === 'answer'
        ? [{ type: 'text', text: step.text }]
        : [{ type: 'tool_use', id: `toolu_${answer}`, name: step.toolName, input: step.input }];
    const body = {
      id: `msg_${answer}`,
      type: 'message',
      role: 'assistant',
      model: request.model,
      content,
      stop_reason: step.kind === 'answer' ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: countMessages(messages, estimator), output_tokens: 20 },
    };
    return { body };
  });
}

describe('an Anthropic conversation whose compactor archives', () => {
  it('offers recall, answers the call with the exact cleared output and runs on to the final answer', async () => {
    scriptRecallModel();
    const store = new InMemoryCompactionStore();
    const conversation = createAnthropicConversation({
      client,
      system: 'You are a careful coding agent.',
      request,
      sessionId: 'task-7',
      compaction: { strategy: archivingMaskStrategy(), budget, store, archive: true },
    });
    const historyAtRequest: number[] = [];
    conversation.on('request', () => historyAtRequest.push(conversation.history.length));
    const called: string[] = [];
    const response = await conversation.run('Read the three modules, then report.', {
      runTool: (call) => {
        called.push(call.name);
        return readFileOutput((call.input as { path: string }).path);
      },
    });

    // The user's handler ran the file reads only; the conversation answered the recall itself.
    expect(called).toEqual(['read_file', 'read_file', 'read_file']);
    const history = conversation.history;
    const recallCall = history
      .flatMap((message) => (typeof message.content === 'string' ? [] : message.content))
      .find((block) => block.type === 'tool_use' && block.name === 'recall') as Anthropic.ToolUseBlockParam;
    const handle = (recallCall.input as { handle: string }).handle;
    // The handle is the one the placeholder named in the request the model answered with the call...
    const bodies = server.requests.map(
      (received) => received.body as Anthropic.MessageCreateParamsNonStreaming,
    );
    const recallRequest = bodies.find((body) => JSON.stringify(body).includes(`recall \\"${handle}\\"`));
    expect(recallRequest).toBeDefined();
    // ...and the tool_result block that answers it holds exactly what was cleared: the first file's output.
    const answer = history
      .flatMap((message) => (typeof message.content === 'string' ? [] : message.content))
      .find((block) => block.type === 'tool_result' && block.tool_use_id === recallCall.id);
    expect(answer).toEqual({
      type: 'tool_result',
      tool_use_id: recallCall.id,
      content: readFileOutput(paths[0]!),
    });
    expect(
      (await store.list('task-7')).flatMap((record) => record.archived ?? []).map((item) => item.handle),
    ).toContain(handle);
    const firstLine = readFileOutput(paths[0]!).split('\n')[0];
    expect(response.content).toEqual([
      {
        type: 'text',
        text: `Recalled ${readFileOutput(paths[0]!).length} characters; it starts "${firstLine}".`,
      },
    ]);

    // Every request offers the recall tool once, after the caller's tools, and keeps the Messages contract
    // against the uncompacted request it stands for.
    expect(conversation.compactions.length).toBeGreaterThan(0);
    bodies.forEach((body, index) => {
      expect(body.tools?.map((tool) => (tool as Anthropic.Tool).name)).toEqual(['read_file', 'recall']);
      const original = { ...body, messages: history.slice(0, historyAtRequest[index]) };
      expect(compactedRequestViolations('anthropic', original, body)).toEqual([]);
    });
    expect(request.tools).toEqual([readFile]);
  });

  it('answers recall with an error result for a handle it never archived, and offers nothing without archive', async () => {
    const store = new InMemoryCompactionStore();
    const conversation = createAnthropicConversation({
      client,
      request,
      compaction: { strategy: archivingMaskStrategy(), budget, store, archive: true },
    });
    server.enqueue('/v1/messages', {
      body: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: request.model,
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'recall', input: { handle: 'nothing' } }],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 50, output_tokens: 5 },
      },
    });
    await conversation.send('Go.');
    const [result] = await conversation.recallResults();
    expect(result).toMatchObject({ toolUseId: 'toolu_1', isError: true });
    expect(result?.content).toContain('No archived text "nothing"');

    const plain = createAnthropicConversation({
      client,
      request,
      compaction: { strategy: archivingMaskStrategy(), budget, store },
    });
    expect(await plain.recallResults()).toEqual([]);
    server.enqueue('/v1/messages', {
      body: {
        id: 'msg_2',
        type: 'message',
        role: 'assistant',
        model: request.model,
        content: [{ type: 'text', text: 'Hello.' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 50, output_tokens: 5 },
      },
    });
    await plain.send('Hi.');
    expect((server.requests.at(-1)!.body as { tools: Anthropic.Tool[] }).tools).toEqual([readFile]);
  });

  it('refuses a request tool named recall when the compactor archives', () => {
    const store = new InMemoryCompactionStore();
    const create = () =>
      createAnthropicConversation({
        client,
        request: { ...request, tools: [readFile, { ...readFile, name: 'recall' }] },
        compaction: { strategy: archivingMaskStrategy(), budget, store, archive: true },
      });
    expect(create).toThrow(InvalidOptionsError);
    expect(create).toThrow(/named "recall"/);
  });
});

import type { OverflowRetriesExhaustedError } from '@compaction/agent-loop';
import {
  ContextOverflowError,
  compactionMetadataOf,
  InvalidMessagesError,
  ProviderError,
} from '@compaction/core';
import { recordConversationEvents } from '@compaction/testing';
import type { TestServer } from '@compaction/testing/loopback-server';
import { expectCompactionSchedule } from '@compaction/testing/vitest';
import type OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  readFileOutput,
  responsesOverflowMessage,
  responsesRequestProblems,
  scriptResponsesAgent,
} from './__fixtures__/openai-conversation-script.js';
import {
  compaction,
  estimator,
  model,
  startLoopbackOpenAI,
} from './__fixtures__/openai-conversation-setup.js';
import { createOpenAIResponsesConversation } from './index.js';

let server: TestServer;
let client: OpenAI;

beforeEach(async () => {
  ({ server, client } = await startLoopbackOpenAI());
});
afterEach(() => server.close());

function pathOf(call: OpenAI.Responses.ResponseFunctionToolCall): string {
  return (JSON.parse(call.arguments) as { path: string }).path;
}

describe('an OpenAI Responses conversation over the real SDK', () => {
  it('compacts a long function loop at the right steps, recovers a failed-response overflow, sends valid input', async () => {
    const toolSteps = 16;
    const exchanges = scriptResponsesAgent(server, {
      toolSteps,
      overflowAt: [11],
      parallelEvery: 5,
      estimator,
    });
    const initial: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'developer', content: 'You are a careful coding agent.' },
      { role: 'user', content: 'Read the modules one by one and prepare the refactoring.' },
    ];
    const snapshot = structuredClone(initial);
    const conversation = createOpenAIResponsesConversation({
      client,
      input: initial,
      request: { model, max_output_tokens: 1_024, store: false },
      compaction: await compaction(),
    });
    const events = recordConversationEvents(conversation);

    const outputs = new Map<string, string>();
    const response = await conversation.run(undefined, {
      runTool: (call) => {
        const output = readFileOutput(pathOf(call));
        outputs.set(call.call_id, output);
        return output;
      },
      maxSteps: 40,
    });
    expect(response.output_text).toContain('ready');

    for (const exchange of exchanges) {
      expect(responsesRequestProblems(exchange.request.body)).toEqual([]);
      expect((exchange.request.body as { input: unknown[] }).input[0]).toEqual(initial[0]);
    }
    // The refusal has no numbers; the retry is still compacted below what was refused.
    const answered = expectCompactionSchedule({
      exchanges,
      compactions: events.compactions,
      budget: conversation.compactor.budget,
      toolSteps,
      overflowStep: 11,
      minimumAutoCompactions: 3,
    });
    expect(events.overflows).toHaveLength(1);

    expect(initial).toEqual(snapshot);
    const history = conversation.history;
    expect(history.slice(0, 2)).toEqual(initial);
    const results = history.filter((item) => item.type === 'function_call_output');
    expect(results).toHaveLength(outputs.size);
    for (const result of results) expect(result.output).toBe(outputs.get(result.call_id));
    expect(conversation.coreHistory.every((message) => compactionMetadataOf(message) === undefined)).toBe(
      true,
    );
    const lastBody = answered.at(-1)!.request.body as { input: unknown[] };
    expect(conversation.context.slice(0, lastBody.input.length)).toEqual(lastBody.input);
  });

  it('throws a ContextOverflowError when every retry is refused too', async () => {
    server.handle('/v1/responses', () => ({
      status: 400,
      body: {
        error: {
          message: responsesOverflowMessage,
          type: 'invalid_request_error',
          param: 'input',
          code: 'context_length_exceeded',
        },
      },
    }));
    const conversation = createOpenAIResponsesConversation({
      client,
      input: longInput(4),
      request: { model },
      compaction: await compaction(),
    });
    const failure = await conversation.send('Summarize.').catch((error: unknown) => error);
    expect(ContextOverflowError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'agent-loop/overflow-retries-exhausted' });
    // Each refused request but the last is followed by one overflow compaction.
    const { attempts } = failure as OverflowRetriesExhaustedError;
    expect(server.requests).toHaveLength(attempts.length);
    expect(conversation.compactions.map((event) => event.trigger)).toEqual(
      attempts.slice(1).map(() => 'overflow'),
    );
  });

  it('turns other failed responses into ProviderError and refuses unanswered calls', async () => {
    server.enqueue('/v1/responses', {
      body: {
        id: 'resp_x',
        object: 'response',
        created_at: 1,
        model,
        status: 'failed',
        output: [],
        error: { code: 'server_error', message: 'boom' },
      },
    });
    const conversation = createOpenAIResponsesConversation({
      client,
      input: [
        { role: 'user', content: 'Go.' },
        { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{}' },
      ],
      request: { model },
      compaction: await compaction(),
    });
    expect(conversation.pendingToolCalls.map((call) => call.call_id)).toEqual(['call_1']);
    await expect(conversation.send('Next.')).rejects.toBeInstanceOf(InvalidMessagesError);
    expect(() => conversation.addToolResults([{ callId: 'call_2', output: 'x' }])).toThrow(
      InvalidMessagesError,
    );
    conversation.addToolResults([{ callId: 'call_1', output: 'done' }]);
    await expect(conversation.send()).rejects.toBeInstanceOf(ProviderError);
    expect(server.requests).toHaveLength(1);
  });
});

function longInput(calls: number): OpenAI.Responses.ResponseInputItem[] {
  const items: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'Read the modules.' }];
  for (let index = 0; index < calls; index++) {
    const callId = `call_history_${index}`;
    const path = `src/history-${index}.ts`;
    items.push(
      { type: 'function_call', call_id: callId, name: 'read_file', arguments: JSON.stringify({ path }) },
      { type: 'function_call_output', call_id: callId, output: readFileOutput(path) },
    );
  }
  return items;
}

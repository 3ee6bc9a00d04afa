import type { Message } from '@compaction/core';
import { openAIResponsesViolations } from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fromOpenAIResponsesInput } from './from-openai-responses-input.js';
import { createOpenAIProvider } from './openai-provider.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  server.handle('/v1/responses', () => ({
    body: {
      id: 'resp_1',
      object: 'response',
      created_at: 0,
      model: 'gpt-5.4-mini',
      status: 'completed',
      error: null,
      incomplete_details: null,
      output: [
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: '## Summary\nDone.', annotations: [] }],
        },
      ],
      usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
    },
  }));
});
afterAll(() => server.close());

/** An agent's input captured as it asked the API to compact: the trigger closes it. */
const agentInput = [
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Run the tests.' }] },
  { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'EqQBCkYIAxgC' },
  { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'bash', arguments: '{"command":"npm test"}' },
  { type: 'function_call_output', call_id: 'call_1', output: '1 failed' },
  { type: 'compaction_trigger' },
];

it('generate leaves out a compaction_trigger, which the API accepts only as the final item', async () => {
  const conversation = fromOpenAIResponsesInput(agentInput as Parameters<typeof fromOpenAIResponsesInput>[0]);
  const ask: Message = { role: 'user', content: [{ type: 'text', text: 'Summarize the work so far.' }] };
  const provider = createOpenAIProvider({
    apiKey: 'test-key',
    baseURL: `${server.url}/v1`,
    model: 'gpt-5.4-mini',
    api: 'responses',
    maxRetries: 0,
  });
  const result = await provider.generate({ messages: [...conversation, ask] });

  expect(result.text).toBe('## Summary\nDone.');
  const body = server.requests[0]!.body as { input: Array<{ type?: string; role?: string }> };
  // The summary request is an easy input message: a role and no type.
  expect(body.input.map((item) => item.type ?? item.role)).toEqual([
    'message',
    'reasoning',
    'function_call',
    'function_call_output',
    'user',
  ]);
  // Every other item as the agent sent it: the cached prefix still matches.
  expect(body.input.slice(0, 4)).toEqual(agentInput.slice(0, 4));
  expect(openAIResponsesViolations(body)).toEqual([]);
});

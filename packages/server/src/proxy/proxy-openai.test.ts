import { compactedRequestViolations } from '@compaction/testing';
import { type RecordedRequest, startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningProxy, startProxy } from './__fixtures__/start-proxy.js';

// The real OpenAI SDK through the proxy, Chat Completions and Responses: a growing tool-using conversation is
// compacted into requests the API accepts, and the compacted prefix stays the same between compactions.

let upstream: TestServer;
let proxy: RunningProxy;
beforeAll(async () => {
  upstream = await startTestServer();
  proxy = await startProxy([`openai=${upstream.url}`], { 'context-window': '10000' });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

const fileContent = (turn: number) =>
  Array.from(
    { length: 36 },
    (_, line) => `def value_${turn}_${line}(): return compute(${turn}, ${line})  # line ${line}`,
  ).join('\n');

const turnOf = (path: string) => upstream.requests.filter((request) => request.path === path).length;

/** Pairs of consecutive upstream lists where the second does not extend the first: the compactions. */
function compactionsIn(lists: unknown[][]): number[] {
  const found: number[] = [];
  for (let index = 1; index < lists.length; index++) {
    const previous = lists[index - 1]!;
    const current = lists[index]!;
    if (JSON.stringify(current.slice(0, previous.length)) !== JSON.stringify(previous)) found.push(index);
  }
  return found;
}

describe('compaction proxy: OpenAI', () => {
  it('compacts a Chat Completions conversation per trigger into valid requests with a stable prefix', async () => {
    upstream.handle('/v1/chat/completions', (request: RecordedRequest) => {
      const turn = turnOf('/v1/chat/completions');
      return {
        body: {
          id: `chatcmpl-${turn}`,
          object: 'chat.completion',
          created: 1,
          model: (request.body as { model: string }).model,
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: null,
                refusal: null,
                tool_calls: [
                  {
                    id: `call_${turn}`,
                    type: 'function',
                    function: {
                      name: 'read_file',
                      arguments: JSON.stringify({ path: `src/module_${turn}.py` }),
                    },
                  },
                ],
              },
              finish_reason: 'tool_calls',
            },
          ],
          usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
        },
      };
    });
    const client = new OpenAI({ apiKey: 'client-key', baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    const tools: OpenAI.ChatCompletionTool[] = [
      {
        type: 'function',
        function: {
          name: 'read_file',
          parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
        },
      },
    ];
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'system', content: 'You are a careful coding agent.' },
      { role: 'user', content: 'Fix the rounding bug in compute().' },
    ];
    const sent: OpenAI.ChatCompletionMessageParam[][] = [];
    for (let turn = 0; turn < 24; turn++) {
      sent.push(structuredClone(messages));
      const completion = await client.chat.completions.create({ model: 'gpt-5.5', tools, messages });
      const message = completion.choices[0]!.message;
      messages.push({ role: 'assistant', content: null, tool_calls: message.tool_calls ?? [] });
      const call = message.tool_calls![0]!;
      messages.push({ role: 'tool', tool_call_id: call.id, content: fileContent(turn) });
    }
    const lists = upstream.requests.map((request) => (request.body as { messages: unknown[] }).messages);
    const compactedAt = compactionsIn(lists);
    expect(compactedAt.length).toBeGreaterThanOrEqual(2);
    expect(proxy.lines.filter((line) => line.includes('conversation'))).toHaveLength(compactedAt.length);
    for (const index of compactedAt) {
      const original = { model: 'gpt-5.5', tools, messages: sent[index] };
      expect(compactedRequestViolations('openai-chat', original, upstream.requests[index]!.body)).toEqual([]);
    }
  });

  it('compacts a Responses conversation into valid requests', async () => {
    upstream.reset();
    const before = proxy.lines.length;
    upstream.handle('/v1/responses', () => {
      const turn = turnOf('/v1/responses');
      return {
        body: {
          id: `resp_${turn}`,
          object: 'response',
          created_at: 1,
          status: 'completed',
          model: 'gpt-5.5',
          output: [
            {
              type: 'function_call',
              id: `fc_${turn}`,
              call_id: `call_${turn}`,
              name: 'read_file',
              arguments: JSON.stringify({ path: `src/module_${turn}.py` }),
              status: 'completed',
            },
          ],
          usage: { input_tokens: 100, output_tokens: 20, total_tokens: 120 },
        },
      };
    });
    const client = new OpenAI({ apiKey: 'client-key', baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    const tools: OpenAI.Responses.FunctionTool[] = [
      {
        type: 'function',
        name: 'read_file',
        strict: false,
        parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      },
    ];
    const input: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'user', content: 'Fix the rounding bug in compute().' },
    ];
    const sent: OpenAI.Responses.ResponseInputItem[][] = [];
    for (let turn = 0; turn < 24; turn++) {
      sent.push(structuredClone(input));
      const response = await client.responses.create({ model: 'gpt-5.5', tools, input });
      const call = response.output.find((item) => item.type === 'function_call')!;
      input.push(call as OpenAI.Responses.ResponseFunctionToolCall);
      input.push({ type: 'function_call_output', call_id: call.call_id, output: fileContent(turn) });
    }
    const lists = upstream.requests.map((request) => (request.body as { input: unknown[] }).input);
    const compactedAt = compactionsIn(lists);
    expect(compactedAt.length).toBeGreaterThanOrEqual(2);
    expect(proxy.lines.length - before).toBe(compactedAt.length);
    for (const index of compactedAt) {
      const original = { model: 'gpt-5.5', tools, input: sent[index] };
      expect(
        compactedRequestViolations('openai-responses', original, upstream.requests[index]!.body),
      ).toEqual([]);
    }
  });

  it('compacts harder and retries once after context_length_exceeded', async () => {
    upstream.reset();
    const answer = {
      id: 'chatcmpl-ok',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-5.5',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Done.', refusal: null }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: 100, completion_tokens: 2, total_tokens: 102 },
    };
    const overflow = {
      status: 400,
      body: {
        error: {
          message:
            "This model's maximum context length is 4000 tokens. However, your messages resulted in 4400 tokens.",
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      },
    };
    // Numbers that agree with the conversation's size: the overflow compaction calibrates its count on them.
    upstream.enqueue('/v1/chat/completions', overflow);
    upstream.handle('/v1/chat/completions', () => ({ body: answer }));
    // Under the proxy's trigger (about 5,300 estimated tokens of a 10,000 window), so the first request goes
    // out whole and the overflow comes from upstream.
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'system', content: 'You are terse.' }];
    for (let turn = 0; turn < 7; turn++) {
      messages.push({ role: 'user', content: `Question ${turn}: ${fileContent(turn)}` });
      messages.push({ role: 'assistant', content: `Answer ${turn}.` });
    }
    messages.push({ role: 'user', content: 'Summarize.' });
    const client = new OpenAI({ apiKey: 'client-key', baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    const completion = await client.chat.completions.create(
      { model: 'gpt-5.5', messages },
      { headers: { 'x-compaction-conversation': 'openai-overflow' } },
    );
    expect(completion.choices[0]?.message.content).toBe('Done.');
    expect(upstream.requests).toHaveLength(2);
    const [first, retry] = upstream.requests.map((request) => request.body as { messages: unknown[] });
    expect(first!.messages).toHaveLength(messages.length);
    expect(JSON.stringify(retry!.messages).length).toBeLessThan(JSON.stringify(first!.messages).length);
    expect(
      compactedRequestViolations('openai-chat', { model: 'gpt-5.5', messages }, upstream.requests[1]!.body),
    ).toEqual([]);
  });

  it('answers 404 for a provider it has no upstream for', async () => {
    upstream.reset();
    const response = await fetch(`${proxy.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'claude-sonnet-5-5',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'Hi' }],
      }),
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('no-upstream');
    expect(upstream.requests).toHaveLength(0);
  });
});

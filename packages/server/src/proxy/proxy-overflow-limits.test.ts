import Anthropic from '@anthropic-ai/sdk';
import {
  type RecordedRequest,
  type Reply,
  startTestServer,
  type TestServer,
} from '@compaction/testing/loopback-server';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerWithToolCalls, type MessageParam, runAgent } from './__fixtures__/coding-agent.js';
import {
  type AnthropicRefusal,
  anthropicWithLimit,
  largeTools,
  upstreamCount,
} from './__fixtures__/limited-upstream.js';
import { type RunningProxy, startProxy } from './__fixtures__/start-proxy.js';

// The proxy counts what the provider counts (tool definitions too) before any usage is known; when the
// provider refuses a request as too long anyway, the retry is sized by the figures of its error, and the limit
// it stated holds every later request to that model, so one overflow is the last.

let upstream: TestServer;
beforeAll(async () => {
  upstream = await startTestServer();
});
afterEach(() => upstream.reset());
afterAll(() => upstream.close());

const isRefusal = (index: number, limit: number) => upstreamCount(upstream.requests[index]!) > limit;

/** A history of `turns` file reads, built without the proxy. */
async function historyOf(turns: number): Promise<MessageParam[]> {
  upstream.handle('/v1/messages', answerWithToolCalls(upstream));
  const direct = new Anthropic({ apiKey: 'client-key', baseURL: upstream.url, maxRetries: 0 });
  const { history } = await runAgent(direct, turns);
  upstream.reset();
  return history;
}

const client = (proxy: RunningProxy, conversation: string) =>
  new Anthropic({
    apiKey: 'client-key',
    baseURL: proxy.url,
    maxRetries: 0,
    defaultHeaders: { 'x-compaction-conversation': conversation },
  });

describe('compaction proxy: what the request carries besides its messages', () => {
  let proxy: RunningProxy;
  beforeAll(async () => {
    proxy = await startProxy([upstream.url], { 'context-window': '30000' });
  });
  afterAll(() => proxy.close());

  it('counts 12k tokens of tool definitions, and compacts messages that fit alone but not beside them', async () => {
    const history = await historyOf(20);
    upstream.handle('/v1/messages', answerWithToolCalls(upstream));
    const request = { model: 'claude-sonnet-5-5', max_tokens: 1024, messages: history };
    // The messages alone are under the trigger: they go as they came.
    await client(proxy, 'small-tools').messages.create(request);
    expect((upstream.requests[0]!.body as { messages: unknown[] }).messages).toHaveLength(history.length);
    expect(proxy.lines, proxy.lines.join('\n')).toHaveLength(0);
    // Beside 12k tokens of tools, the same messages do not fit: compacted before the first request is sent.
    await client(proxy, 'large-tools').messages.create({ ...request, tools: largeTools(12_000) });
    const sent = upstream.requests[1]!.body as { messages: unknown[]; tools: unknown[] };
    expect(sent.tools).toHaveLength(largeTools(12_000).length);
    expect(JSON.stringify(sent.messages).length).toBeLessThan(JSON.stringify(history).length);
    expect(proxy.lines).toHaveLength(1);
    expect(proxy.lines[0]).toContain('trigger auto');
  });
});

describe('compaction proxy: overflow retries sized by the provider’s figures', () => {
  let proxy: RunningProxy;
  beforeAll(async () => {
    // The proxy's window is far above the provider's: only the provider's refusals tell the real limit.
    proxy = await startProxy([upstream.url], { 'context-window': '200000' });
  });
  afterAll(() => proxy.close());

  it.each<[AnthropicRefusal]>([['prompt-too-long'], ['input-and-max-tokens']])(
    'gets a request with 12k tokens of tools under a limit the provider states (%s)',
    async (form) => {
      const history = await historyOf(50);
      const limit = 30_000;
      upstream.handle('/v1/messages', anthropicWithLimit(upstream, limit, form));
      const answer = await client(proxy, `figures-${form}`).messages.create({
        model: `claude-${form}`,
        max_tokens: 4096,
        tools: largeTools(12_000),
        messages: history,
      });
      expect(answer.stop_reason).toBe('tool_use');
      // One refusal, then a retry the provider took.
      expect(upstream.requests).toHaveLength(2);
      expect(isRefusal(0, limit)).toBe(true);
      const retry = upstream.requests[1]!;
      const maxTokens = form === 'prompt-too-long' ? 0 : 4096;
      expect(upstreamCount(retry) + maxTokens).toBeLessThanOrEqual(limit);
      expect(proxy.lines.some((line) => line.includes('trigger overflow'))).toBe(true);
      const learned = proxy.server.status().learnedLimits.find((entry) => entry.model === `claude-${form}`);
      expect(learned).toMatchObject({ upstream: 'anthropic', overflows: 1 });
    },
  );

  it('cuts harder when the retry is refused again, and gives the client the provider’s answer only when no cut fits', async () => {
    const history = await historyOf(30);
    const refusal = (count: number) => ({
      status: 400,
      body: {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: `prompt is too long: ${count} tokens > 200000 maximum`,
        },
      },
    });
    const request = { model: 'claude-stubborn', max_tokens: 1024, messages: history };
    // Refused twice whatever the size: the second retry, cut harder, is taken.
    upstream.enqueue('/v1/messages', refusal(210_000), refusal(205_000));
    upstream.handle('/v1/messages', answerWithToolCalls(upstream));
    const answer = await client(proxy, 'stubborn').messages.create(request);
    expect(answer.stop_reason).toBe('tool_use');
    expect(upstream.requests).toHaveLength(3);
    const sizes = upstream.requests.map((each) => each.rawBody.length);
    expect(sizes[1]).toBeLessThan(sizes[0]!);
    expect(sizes[2]).toBeLessThan(sizes[1]!);
    // Refused three times: the third refusal is the client's, as the provider wrote it.
    upstream.reset();
    upstream.enqueue('/v1/messages', refusal(210_000), refusal(205_000), refusal(201_000));
    const error = await client(proxy, 'hopeless')
      .messages.create(request)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toEqual(refusal(201_000).body);
    expect(upstream.requests).toHaveLength(3);
  });
});

describe('compaction proxy: the limit a provider stated holds from then on', () => {
  it('lets at most one request of a 40-turn run be refused when the real limit is half the proxy’s window', async () => {
    const proxy = await startProxy([upstream.url], { 'context-window': '20000' });
    try {
      const limit = 10_000;
      upstream.handle('/v1/messages', anthropicWithLimit(upstream, limit));
      const turns = 40;
      await runAgent(client(proxy, 'half-window'), turns, { model: 'claude-half' });
      const refusals = upstream.requests.filter((_, index) => isRefusal(index, limit));
      expect(refusals.length).toBeLessThanOrEqual(1);
      expect(upstream.requests.length).toBeLessThanOrEqual(turns + 1);
      const status = proxy.server.status();
      expect(status.learnedLimits).toEqual([
        expect.objectContaining({ upstream: 'anthropic', model: 'claude-half', overflows: 1 }),
      ]);
      expect(status.learnedLimits[0]!.inputTokens).toBeLessThanOrEqual(limit);
    } finally {
      await proxy.close();
    }
  });
});

/**
 * A Chat Completions upstream whose real limit is `limit` tokens of its own count: it refuses a longer request
 * with the words the API uses when tools take part, and answers the others with a call reading the next file.
 */
function chatWithLimit(limit: number) {
  return (request: RecordedRequest): Reply => {
    const count = upstreamCount(request);
    const body = request.body as { tools?: unknown[]; model: string };
    if (count > limit) {
      const functions = Math.ceil(Buffer.byteLength(JSON.stringify(body.tools ?? [])) / 3.5);
      return {
        status: 400,
        body: {
          error: {
            message:
              `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${count} ` +
              `tokens (${count - functions} in the messages, ${functions} in the functions). Please reduce the ` +
              'length of the messages or functions.',
            type: 'invalid_request_error',
            param: 'messages',
            code: 'context_length_exceeded',
          },
        },
      };
    }
    const turn = upstream.requests.length;
    return {
      body: {
        id: `chatcmpl-${turn}`,
        object: 'chat.completion',
        created: 1,
        model: body.model,
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
  };
}

describe('compaction proxy: Chat Completions under a provider limit below the window', () => {
  it('finishes a 30-turn run with tools, one refusal at most, the limit learned from the message', async () => {
    const proxy = await startProxy([`openai=${upstream.url}`], { 'context-window': '40000' });
    try {
      const limit = 16_000;
      upstream.handle('/v1/chat/completions', chatWithLimit(limit));
      const client = new OpenAI({ apiKey: 'client-key', baseURL: `${proxy.url}/v1`, maxRetries: 0 });
      const tools: OpenAI.ChatCompletionTool[] = largeTools(4_000).map((tool) => ({
        type: 'function',
        function: { name: tool.name, description: tool.description ?? '', parameters: tool.input_schema },
      }));
      const messages: OpenAI.ChatCompletionMessageParam[] = [
        { role: 'system', content: 'You are a careful coding agent.' },
        { role: 'user', content: 'Fix the rounding bug in compute().' },
      ];
      const fileContent = (turn: number) =>
        Array.from(
          { length: 36 },
          (_, line) => `value_${turn}_${line} = compute(${turn}, ${line})  # line ${line}`,
        ).join('\n');
      const turns = 30;
      for (let turn = 0; turn < turns; turn++) {
        const completion = await client.chat.completions.create(
          { model: 'gpt-limited', tools, messages },
          { headers: { 'x-compaction-conversation': 'chat-limited' } },
        );
        const call = completion.choices[0]!.message.tool_calls![0]!;
        messages.push({ role: 'assistant', content: null, tool_calls: [call] });
        messages.push({ role: 'tool', tool_call_id: call.id, content: fileContent(turn) });
      }
      const refusals = upstream.requests.filter((request) => upstreamCount(request) > limit);
      expect(refusals.length).toBeLessThanOrEqual(1);
      expect(upstream.requests.length).toBeLessThanOrEqual(turns + 1);
      expect(proxy.server.status().learnedLimits).toEqual([
        expect.objectContaining({ upstream: 'openai', model: 'gpt-limited', overflows: 1 }),
      ]);
    } finally {
      await proxy.close();
    }
  });
});

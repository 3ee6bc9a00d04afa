import type { JSONObject, Message, ModelLimits, Provider } from '@compaction/core';
import { createAnthropicProvider, fromAnthropicRequest } from '@compaction/provider-anthropic';
import { createOpenAIProvider, fromOpenAIChatMessages } from '@compaction/provider-openai';
import type { Reply, TestServer } from '@compaction/testing/loopback-server';

/** How a test builds a provider pointed at the loopback server. */
export interface HarnessProviderSettings {
  /** The SDK's own retries. */
  maxRetries: number;
  /** The SDK's request timeout, in milliseconds. */
  timeout: number;
  /** Limits of the harness model, through the adapter's `modelLimits` override. */
  limits?: ModelLimits;
  /**
   * The agent's tool definitions, in the Messages API's shape: the Anthropic adapter sends them with a
   * conversation that holds tool calls (the OpenAI APIs take such a conversation without them).
   */
  tools?: JSONObject[];
}

/** A summarizer request as the API received it, read back in one shape for both APIs. */
export interface SummarizerRequestView {
  model: unknown;
  system: string;
  turns: Array<{ role: string; text: string }>;
  maxTokens: unknown;
  temperature: unknown;
}

/**
 * One real SDK behind its adapter, and the wire format of its API: what the loopback server answers and how
 * a recorded request body is read, checked and counted.
 */
export interface SdkHarness {
  name: 'anthropic' | 'openai';
  /** The model the provider is created with. */
  model: string;
  /** The path the adapter posts summaries to. */
  path: string;
  createProvider(server: TestServer, settings: HarnessProviderSettings): Provider;
  /** A successful answer with this text. */
  success(text: string): Reply;
  /** A successful answer with no text at all. */
  empty(): Reply;
  /** A 429, with `retry-after` (seconds) and the SDKs' `retry-after-ms`, which they prefer. */
  rateLimited(retryAfterMs: number): Reply;
  /** A 500; `retry-after-ms` keeps the SDK's retry fast. */
  serverError(retryAfterMs: number): Reply;
  /** A 200 whose body is cut off mid-JSON. */
  malformed(): Reply;
  /** Rules of the API that a summarizer request breaks (empty when it is valid). */
  requestIssues(body: unknown): string[];
  view(body: unknown): SummarizerRequestView;
  /** The request's conversation as core messages, to count what the summarizer model would read. */
  messagesOf(body: unknown): Message[];
}

type Body = Record<string, unknown>;
const asBody = (body: unknown): Body => (body ?? {}) as Body;

const textOfContent = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((block) => (block as { text?: string }).text ?? '').join('')
      : '';

/** Keys a request may carry; anything else (tools, streaming, a stray field) is not what a summarizer sends. */
function unexpectedKeys(body: Body, allowed: readonly string[]): string[] {
  return Object.keys(body)
    .filter((key) => !allowed.includes(key))
    .map((key) => `unexpected field "${key}"`);
}

function positiveInteger(value: unknown, name: string): string[] {
  return Number.isInteger(value) && (value as number) > 0 ? [] : [`${name} is not a positive integer`];
}

/** A Messages API answer with this text. */
export const anthropicMessage = (text: string) => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-haiku-5-5',
  content: [{ type: 'text', text }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 1000, output_tokens: 200 },
});

/** A Responses API answer with this text. */
export const responsesResponse = (text: string) => ({
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
      content: [{ type: 'output_text', text, annotations: [] }],
    },
  ],
  usage: { input_tokens: 1000, output_tokens: 200, total_tokens: 1200 },
});

const anthropicHarness: SdkHarness = {
  name: 'anthropic',
  model: 'claude-haiku-5-5',
  path: '/v1/messages',
  createProvider: (server, settings) =>
    createAnthropicProvider({
      apiKey: 'test-key',
      baseURL: server.url,
      model: 'claude-haiku-5-5',
      maxRetries: settings.maxRetries,
      timeout: settings.timeout,
      ...(settings.limits === undefined ? {} : { modelLimits: { 'claude-haiku-5-5': settings.limits } }),
      ...(settings.tools === undefined ? {} : { tools: settings.tools }),
    }),
  success: (text) => ({ body: anthropicMessage(text) }),
  // No content block at all, and no output tokens: what an empty answer looks like on the wire.
  empty: () => ({
    body: { ...anthropicMessage(''), content: [], usage: { input_tokens: 1000, output_tokens: 0 } },
  }),
  rateLimited: (retryAfterMs) => ({
    status: 429,
    headers: {
      'retry-after': String(Math.ceil(retryAfterMs / 1000)),
      'retry-after-ms': String(retryAfterMs),
    },
    body: {
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit' },
    },
  }),
  serverError: (retryAfterMs) => ({
    status: 500,
    headers: { 'retry-after-ms': String(retryAfterMs) },
    body: { type: 'error', error: { type: 'api_error', message: 'Internal server error' } },
  }),
  malformed: () => ({
    raw: '{"id": "msg_1", "type": "message", "content": [{"type": "text", "text": "## Go',
  }),
  requestIssues(value) {
    const body = asBody(value);
    const issues = [
      ...unexpectedKeys(body, ['model', 'max_tokens', 'system', 'messages', 'temperature']),
      ...positiveInteger(body.max_tokens, 'max_tokens'),
    ];
    if (typeof body.model !== 'string' || body.model === '') issues.push('no model');
    const system = body.system;
    const systemValid =
      system === undefined ||
      typeof system === 'string' ||
      (Array.isArray(system) && system.every((block) => (block as Body).type === 'text'));
    if (!systemValid) issues.push('system is neither a string nor text blocks');
    const messages = body.messages;
    if (!Array.isArray(messages) || messages.length === 0) return [...issues, 'no messages'];
    messages.forEach((message: Body, index) => {
      if (message.role !== 'user' && message.role !== 'assistant') {
        issues.push(`message ${index} has role "${String(message.role)}"`);
      }
      if (index === 0 && message.role !== 'user') issues.push('the first message is not a user turn');
      if (index > 0 && message.role === (messages[index - 1] as Body).role) {
        issues.push(`messages ${index - 1} and ${index} do not alternate`);
      }
      if (textOfContent(message.content).trim() === '') issues.push(`message ${index} has no text`);
    });
    if ((messages.at(-1) as Body).role !== 'user') issues.push('the last message is not a user turn');
    if (body.temperature !== undefined && !(Number(body.temperature) >= 0 && Number(body.temperature) <= 1)) {
      issues.push('temperature is outside 0..1');
    }
    return issues;
  },
  view(value) {
    const body = asBody(value);
    return {
      model: body.model,
      system: textOfContent(body.system),
      turns: (body.messages as Body[]).map((message) => ({
        role: String(message.role),
        text: textOfContent(message.content),
      })),
      maxTokens: body.max_tokens,
      temperature: body.temperature,
    };
  },
  messagesOf(value) {
    const body = asBody(value);
    return fromAnthropicRequest({ system: body.system, messages: body.messages } as Parameters<
      typeof fromAnthropicRequest
    >[0]);
  },
};

/** A Chat Completions answer with this text. */
export const chatCompletion = (content: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 0,
  model: 'gpt-5.4-mini',
  choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200 },
});

const openaiHarness: SdkHarness = {
  name: 'openai',
  model: 'gpt-5.4-mini',
  path: '/v1/chat/completions',
  createProvider: (server, settings) =>
    createOpenAIProvider({
      apiKey: 'test-key',
      baseURL: `${server.url}/v1`,
      model: 'gpt-5.4-mini',
      maxRetries: settings.maxRetries,
      timeout: settings.timeout,
      ...(settings.limits === undefined ? {} : { modelLimits: { 'gpt-5.4-mini': settings.limits } }),
    }),
  success: (text) => ({ body: chatCompletion(text) }),
  empty: () => ({ body: chatCompletion('') }),
  rateLimited: (retryAfterMs) => ({
    status: 429,
    headers: {
      'retry-after': String(Math.ceil(retryAfterMs / 1000)),
      'retry-after-ms': String(retryAfterMs),
    },
    body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
  }),
  serverError: (retryAfterMs) => ({
    status: 500,
    headers: { 'retry-after-ms': String(retryAfterMs) },
    body: { error: { message: 'The server had an error', type: 'server_error', code: null } },
  }),
  malformed: () => ({ raw: '{"id": "chatcmpl-1", "choices": [{"index": 0, "message": {"content": "## Go' }),
  requestIssues(value) {
    const body = asBody(value);
    const issues = [
      ...unexpectedKeys(body, ['model', 'messages', 'max_completion_tokens', 'temperature']),
      ...positiveInteger(body.max_completion_tokens, 'max_completion_tokens'),
    ];
    if (typeof body.model !== 'string' || body.model === '') issues.push('no model');
    const messages = body.messages;
    if (!Array.isArray(messages) || messages.length === 0) return [...issues, 'no messages'];
    messages.forEach((message: Body, index) => {
      if (!['system', 'developer', 'user', 'assistant'].includes(String(message.role))) {
        issues.push(`message ${index} has role "${String(message.role)}"`);
      }
      if (textOfContent(message.content).trim() === '') issues.push(`message ${index} has no text`);
      if ('tool_calls' in message) issues.push(`message ${index} has tool calls`);
    });
    if ((messages.at(-1) as Body).role !== 'user') issues.push('the last message is not a user turn');
    if (body.temperature !== undefined && !(Number(body.temperature) >= 0 && Number(body.temperature) <= 2)) {
      issues.push('temperature is outside 0..2');
    }
    return issues;
  },
  view(value) {
    const body = asBody(value);
    const messages = body.messages as Body[];
    return {
      model: body.model,
      system: messages
        .filter((message) => message.role === 'system' || message.role === 'developer')
        .map((message) => textOfContent(message.content))
        .join('\n'),
      turns: messages
        .filter((message) => message.role !== 'system' && message.role !== 'developer')
        .map((message) => ({ role: String(message.role), text: textOfContent(message.content) })),
      maxTokens: body.max_completion_tokens,
      temperature: body.temperature,
    };
  },
  messagesOf: (value) =>
    fromOpenAIChatMessages(asBody(value).messages as Parameters<typeof fromOpenAIChatMessages>[0]),
};

/** Both SDKs, for `describe.each`. */
export const sdkHarnesses: readonly SdkHarness[] = [anthropicHarness, openaiHarness];

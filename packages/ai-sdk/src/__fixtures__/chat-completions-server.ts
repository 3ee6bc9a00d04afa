import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One message of an OpenAI Chat Completions request, as the server received it. */
export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

/** A request the server received. */
export interface ReceivedRequest {
  body: { model: string; messages: ChatMessage[]; stream?: boolean; tools?: unknown[] };
  /** Length of the raw body in characters. */
  size: number;
  /** The prompt tokens the server reported back (see {@link promptTokensOf}). */
  promptTokens: number;
}

/** What the server answers to one request. */
export type ScriptedAnswer =
  | { kind: 'tool-call'; toolName: string; input: Record<string, unknown> }
  | { kind: 'text'; text: string }
  | { kind: 'error'; status: number; body: unknown };

/**
 * The prompt tokens the server reports: characters of the message contents (text and tool arguments) over
 * 3.5, plus 4 per message. A fixed rule, so tests can relate what the client counted to what was reported.
 */
export function promptTokensOf(messages: readonly ChatMessage[]): number {
  let characters = 0;
  for (const message of messages) {
    characters +=
      typeof message.content === 'string'
        ? message.content.length
        : JSON.stringify(message.content ?? '').length;
    for (const call of message.tool_calls ?? [])
      characters += call.function.arguments.length + call.function.name.length;
  }
  return Math.ceil(characters / 3.5) + 4 * messages.length;
}

/** An OpenAI-style `context_length_exceeded` refusal. */
export function contextLengthExceeded(requestTokens: number, maximumTokens: number): ScriptedAnswer {
  return {
    kind: 'error',
    status: 400,
    body: {
      error: {
        message: `This model's maximum context length is ${maximumTokens} tokens. However, your messages resulted in ${requestTokens} tokens. Please reduce the length of the messages.`,
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    },
  };
}

/** A local OpenAI-compatible Chat Completions server that answers from a script and records every request. */
export interface ChatCompletionsServer {
  /** `http://127.0.0.1:<port>/v1` */
  baseURL: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 and a free port. `answer` picks the answer to the n-th request (from 0). */
export async function startChatCompletionsServer(
  answer: (request: ReceivedRequest, index: number) => ScriptedAnswer,
): Promise<ChatCompletionsServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((incoming, response) => {
    void handle(incoming, response);
  });

  async function handle(incoming: IncomingMessage, response: ServerResponse) {
    let raw = '';
    for await (const chunk of incoming) raw += String(chunk);
    if (incoming.method !== 'POST' || incoming.url !== '/v1/chat/completions') {
      response.writeHead(404).end();
      return;
    }
    const body = JSON.parse(raw) as ReceivedRequest['body'];
    const received: ReceivedRequest = { body, size: raw.length, promptTokens: promptTokensOf(body.messages) };
    const index = requests.push(received) - 1;
    const scripted = answer(received, index);
    if (scripted.kind === 'error') {
      response
        .writeHead(scripted.status, { 'content-type': 'application/json' })
        .end(JSON.stringify(scripted.body));
      return;
    }
    const usage = {
      prompt_tokens: received.promptTokens,
      completion_tokens: 12,
      total_tokens: received.promptTokens + 12,
    };
    const id = `chatcmpl-${index}`;
    const toolCalls =
      scripted.kind === 'tool-call'
        ? [
            {
              id: `call_${index}`,
              type: 'function',
              function: { name: scripted.toolName, arguments: JSON.stringify(scripted.input) },
            },
          ]
        : undefined;
    const finishReason = scripted.kind === 'tool-call' ? 'tool_calls' : 'stop';
    const content = scripted.kind === 'text' ? scripted.text : null;
    const base = { id, created: 1_700_000_000, model: body.model };
    if (body.stream !== true) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          ...base,
          object: 'chat.completion',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content, tool_calls: toolCalls },
              finish_reason: finishReason,
            },
          ],
          usage,
        }),
      );
      return;
    }
    const chunk = (data: unknown) =>
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', ...(data as object) })}\n\n`;
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.write(
      chunk({
        choices: [
          {
            index: 0,
            delta: {
              role: 'assistant',
              ...(content === null ? {} : { content }),
              ...(toolCalls === undefined
                ? {}
                : { tool_calls: toolCalls.map((call, callIndex) => ({ index: callIndex, ...call })) }),
            },
            finish_reason: null,
          },
        ],
      }),
    );
    response.write(chunk({ choices: [{ index: 0, delta: {}, finish_reason: finishReason }] }));
    response.write(chunk({ choices: [], usage }));
    response.end('data: [DONE]\n\n');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/**
 * Problems that would make a provider refuse the request: a tool result that does not answer a call of the
 * assistant message before it, a call left without a result, a conversation that does not start with a user
 * turn after the system prompt.
 */
export function requestProblems(messages: readonly ChatMessage[]): string[] {
  const problems: string[] = [];
  const firstOther = messages.findIndex((message) => message.role !== 'system');
  if (firstOther !== -1 && messages[firstOther]!.role !== 'user')
    problems.push('does not start with a user message');
  let open = new Set<string>();
  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      if (!open.has(message.tool_call_id ?? '')) problems.push(`messages[${index}] answers no open call`);
      open.delete(message.tool_call_id ?? '');
      return;
    }
    if (open.size > 0)
      problems.push(`messages[${index}] follows calls without results: ${[...open].join(', ')}`);
    open = new Set((message.tool_calls ?? []).map((call) => call.id));
  });
  if (open.size > 0) problems.push(`the last calls have no results: ${[...open].join(', ')}`);
  return problems;
}

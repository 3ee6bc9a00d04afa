import { type RecordedRequest, startTestServer, type TestServer } from '@compaction/testing/loopback-server';

/** The two APIs the SDK's OpenAI models speak. */
export type ScriptedApi = 'responses' | 'chat';

/** What the scripted model does at one call: read a file, recall what a placeholder names, or answer. */
export type ScriptedStep =
  | { kind: 'read'; path: string }
  | { kind: 'recall' }
  | { kind: 'answer'; text: string };

/** The text of a file the scripted model reads: about 3,000 characters, numbered lines. */
export function fileText(path: string): string {
  return Array.from(
    { length: 60 },
    (_, line) => `${path}:${line + 1} export const value${line} = ${line};`,
  ).join('\n');
}

/** The handle the newest placeholder of a request names, if any. */
export function newestHandle(rawBody: string): string | undefined {
  const handles = [...rawBody.matchAll(/recall \\?"([A-Za-z0-9_-]+)\\?"/g)].map((match) => match[1]!);
  return handles.at(-1);
}

/** A loopback stand-in for the OpenAI API: answers by the plan, one step per request of its API. */
export interface ScriptedAgentServer {
  /** `http://127.0.0.1:<port>/v1` */
  baseURL: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Starts the stand-in. Its answers follow `plan` by how many calls it has had, whatever compaction did to
 * the history; it reports input tokens as a fourth of the request's characters, as a real API reports
 * usage, so the compactor can anchor its count. In Responses mode each tool call comes after a reasoning item
 * with encrypted content, as reasoning models answer. With `refuseOverTokens`, a request over that many tokens
 * is refused with the API's `context_length_exceeded` error.
 */
export async function startScriptedAgentServer(
  plan: readonly ScriptedStep[],
  options: { refuseOverTokens?: number } = {},
): Promise<ScriptedAgentServer> {
  const server: TestServer = await startTestServer();
  let calls = 0;
  /** A refusal as the OpenAI API words it, for a request over the window; it takes no step of the plan. */
  const refusal = (request: RecordedRequest) => {
    const tokens = Math.ceil(request.rawBody.length / 4);
    const limit = options.refuseOverTokens;
    if (limit === undefined || tokens <= limit) return undefined;
    const message = `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`;
    return {
      status: 400,
      body: {
        error: { message, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' },
      },
    };
  };
  const next = (request: RecordedRequest) => {
    const step = plan[Math.min(calls, plan.length - 1)]!;
    const number = calls++;
    const inputTokens = Math.ceil(request.rawBody.length / 4);
    if (step.kind === 'answer') return { number, inputTokens, text: step.text };
    const call =
      step.kind === 'read'
        ? { name: 'read_file', arguments: JSON.stringify({ path: step.path }) }
        : { name: 'recall', arguments: JSON.stringify({ handle: newestHandle(request.rawBody) ?? 'none' }) };
    return { number, inputTokens, call };
  };
  server.handle('/v1/responses', (request) => {
    const refused = refusal(request);
    if (refused !== undefined) return refused;
    const { number, inputTokens, text, call } = next(request);
    const output =
      call === undefined
        ? [
            {
              type: 'message',
              id: `msg_${number}`,
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text, annotations: [] }],
            },
          ]
        : [
            {
              type: 'reasoning',
              id: `rs_${number}`,
              summary: [{ type: 'summary_text', text: `Next: ${call.name}.` }],
              encrypted_content: `encrypted-${number}`,
            },
            {
              type: 'function_call',
              id: `fc_${number}`,
              call_id: `call_${number}`,
              status: 'completed',
              ...call,
            },
          ];
    const response = {
      id: `resp_${number}`,
      object: 'response',
      created_at: 1_700_000_000,
      model: 'scripted-model',
      status: 'completed',
      output,
      usage: {
        input_tokens: inputTokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 20,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: inputTokens + 20,
      },
    };
    if ((request.body as { stream?: boolean }).stream !== true) return { body: response };
    // A stream as the API sends one, reduced to its first and last events: the SDK reads the whole response
    // from `response.completed`.
    const created = { ...response, status: 'in_progress', output: [], usage: null };
    const events = [
      { type: 'response.created', sequence_number: 0, response: created },
      { type: 'response.completed', sequence_number: 1, response },
    ];
    return {
      chunks: events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`),
    };
  });
  server.handle('/v1/chat/completions', (request) => {
    const refused = refusal(request);
    if (refused !== undefined) return refused;
    const { number, inputTokens, text, call } = next(request);
    const message =
      call === undefined
        ? { role: 'assistant', content: text }
        : {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: `call_${number}`, type: 'function', function: call }],
          };
    return {
      body: {
        id: `chatcmpl-${number}`,
        object: 'chat.completion',
        created: 1_700_000_000,
        model: 'scripted-model',
        choices: [{ index: 0, message, finish_reason: call === undefined ? 'stop' : 'tool_calls' }],
        usage: { prompt_tokens: inputTokens, completion_tokens: 20, total_tokens: inputTokens + 20 },
      },
    };
  });
  return { baseURL: `${server.url}/v1`, requests: server.requests, close: () => server.close() };
}

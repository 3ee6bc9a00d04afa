import {
  type RecordedRequest,
  type Reply,
  startTestServer,
  type TestServer,
} from '@compaction/testing/loopback-server';

/** What the scripted model does for one request. */
export type ScriptedTurn =
  | { kind: 'tool-call'; name: string; input: Record<string, unknown> }
  | { kind: 'text'; text: string }
  /** Refuses the request as longer than the context window, with the provider's own error and figures. */
  | { kind: 'overflow'; requestTokens: number; maximumTokens: number };

/** Which wire the request came in on. */
export type Wire = 'openai' | 'anthropic';

/** Decides the turn of a request from its index (0 first) and its body. */
export type Script = (index: number, body: Record<string, unknown>, wire: Wire) => ScriptedTurn;

/** A scripted model on 127.0.0.1 speaking OpenAI Chat Completions and Anthropic Messages. */
export interface ScriptedModelServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Prompt tokens as the stand-in reports them: about four characters a token, as a real model counts roughly. */
export function promptTokens(body: Record<string, unknown>): number {
  return Math.ceil(JSON.stringify([body.system ?? '', body.messages, body.tools ?? []]).length / 4);
}

/**
 * Starts the scripted model. Like a real API, it reports the prompt's usage, which the compactor anchors on;
 * Anthropic answers open with a signed thinking block, as with extended thinking.
 */
export async function startScriptedModel(script: Script): Promise<ScriptedModelServer> {
  const server: TestServer = await startTestServer();
  let index = 0;
  server.handle('/v1/chat/completions', (request) => {
    const body = request.body as Record<string, unknown>;
    return openAIReply(script(index++, body, 'openai'), body, index);
  });
  server.handle('/v1/messages', (request) => {
    const body = request.body as Record<string, unknown>;
    return anthropicReply(script(index++, body, 'anthropic'), body, index);
  });
  return { url: server.url, requests: server.requests, close: () => server.close() };
}

function openAIReply(turn: ScriptedTurn, body: Record<string, unknown>, step: number): Reply {
  if (turn.kind === 'overflow') {
    const message =
      `This model's maximum context length is ${turn.maximumTokens} tokens. However, your messages resulted ` +
      `in ${turn.requestTokens} tokens. Please reduce the length of the messages.`;
    const error = {
      message,
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    };
    return { status: 400, body: { error } };
  }
  const message =
    turn.kind === 'text'
      ? { role: 'assistant', content: turn.text }
      : {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: `call_${step}`,
              type: 'function',
              function: { name: turn.name, arguments: JSON.stringify(turn.input) },
            },
          ],
        };
  const prompt = promptTokens(body);
  return {
    body: {
      id: `chatcmpl-${step}`,
      object: 'chat.completion',
      created: 1_700_000_000,
      model: body.model,
      choices: [{ index: 0, message, finish_reason: turn.kind === 'text' ? 'stop' : 'tool_calls' }],
      usage: { prompt_tokens: prompt, completion_tokens: 20, total_tokens: prompt + 20 },
    },
  };
}

function anthropicReply(turn: ScriptedTurn, body: Record<string, unknown>, step: number): Reply {
  if (turn.kind === 'overflow') {
    const message = `prompt is too long: ${turn.requestTokens} tokens > ${turn.maximumTokens} maximum`;
    return { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message } } };
  }
  const thinking = { type: 'thinking', thinking: `Step ${step}: what next?`, signature: `sig-${step}` };
  const content =
    turn.kind === 'text'
      ? [thinking, { type: 'text', text: turn.text }]
      : [thinking, { type: 'tool_use', id: `toolu_${step}`, name: turn.name, input: turn.input }];
  return {
    body: {
      id: `msg_${step}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content,
      stop_reason: turn.kind === 'text' ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: promptTokens(body), output_tokens: 20 },
    },
  };
}

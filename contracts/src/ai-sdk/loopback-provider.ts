import { type RecordedRequest, startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { type AiSdkTarget, loopToolName, requestPaths } from './ai-sdk-target.js';

/** What one call sent, and how it ended. */
export interface CapturedCall {
  /** The request bodies, in order (also those sent before a failure). */
  bodies: unknown[];
  /** Whether the call threw, and what. */
  failed: boolean;
  error?: unknown;
}

/**
 * A loopback server standing in for the provider APIs. Within one captured call it answers the first request
 * with a call of the loop tool (with thinking or reasoning when the request asks for it) and every later one
 * with text, so each call makes two requests: the conversation, then the conversation inside a tool loop.
 * The answers are the same for every call, so two calls on the same conversation can be compared step by step.
 */
export class LoopbackProvider {
  private constructor(private readonly server: TestServer) {}

  static async start(): Promise<LoopbackProvider> {
    return new LoopbackProvider(await startTestServer());
  }

  get url(): string {
    return this.server.url;
  }

  /** Runs `call` against the server (one call at a time) and returns what it sent. */
  async capture(target: AiSdkTarget, call: () => Promise<unknown>): Promise<CapturedCall> {
    this.server.reset();
    let answered = 0;
    this.server.handle(requestPaths[target], (request) => ({
      body: answer(target, answered++ === 0 ? 'tool-call' : 'text', request),
    }));
    const bodies = () => this.server.requests.map((request) => request.body);
    try {
      await call();
      return { bodies: bodies(), failed: false };
    } catch (error) {
      return { bodies: bodies(), failed: true, error };
    }
  }

  close(): Promise<void> {
    return this.server.close();
  }
}

const loopInput = { path: 'src/index.ts' };
const finalText = 'Done: the change is in and the tests pass.';

/** A rough token count of what was sent, so usage anchors counts near where they were. */
function inputTokens(request: RecordedRequest): number {
  return Math.ceil(JSON.stringify(request.body ?? '').length / 4);
}

function answer(target: AiSdkTarget, kind: 'tool-call' | 'text', request: RecordedRequest): unknown {
  switch (target) {
    case 'anthropic':
      return anthropicAnswer(kind, request);
    case 'openai-chat':
      return chatAnswer(kind, request);
    case 'openai-responses':
      return responsesAnswer(kind, request);
  }
}

function anthropicAnswer(kind: 'tool-call' | 'text', request: RecordedRequest): unknown {
  const body = request.body as { thinking?: { type?: string } } | undefined;
  const thinking = body?.thinking !== undefined && body.thinking.type !== 'disabled';
  const content =
    kind === 'text'
      ? [{ type: 'text', text: finalText }]
      : [
          ...(thinking
            ? [{ type: 'thinking', thinking: 'Read the file first.', signature: 'loop-signature' }]
            : []),
          { type: 'tool_use', id: 'toolu_loop_0001', name: loopToolName, input: loopInput },
        ];
  return {
    id: `msg_loop_${kind}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content,
    stop_reason: kind === 'text' ? 'end_turn' : 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: inputTokens(request), output_tokens: 20 },
  };
}

function chatAnswer(kind: 'tool-call' | 'text', request: RecordedRequest): unknown {
  const message =
    kind === 'text'
      ? { role: 'assistant', content: finalText }
      : {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_loop_0001',
              type: 'function',
              function: { name: loopToolName, arguments: JSON.stringify(loopInput) },
            },
          ],
        };
  const promptTokens = inputTokens(request);
  return {
    id: `chatcmpl-loop-${kind}`,
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'gpt-4.1',
    choices: [{ index: 0, message, finish_reason: kind === 'text' ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: promptTokens, completion_tokens: 20, total_tokens: promptTokens + 20 },
  };
}

function responsesAnswer(kind: 'tool-call' | 'text', request: RecordedRequest): unknown {
  const output =
    kind === 'text'
      ? [
          {
            type: 'message',
            id: 'msg_loop_0002',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: finalText, annotations: [] }],
          },
        ]
      : [
          {
            type: 'reasoning',
            id: 'rs_loop_0001',
            encrypted_content: 'loop-encrypted-reasoning',
            summary: [{ type: 'summary_text', text: 'Read the file first.' }],
          },
          {
            type: 'function_call',
            id: 'fc_loop_0001',
            call_id: 'call_loop_0001',
            name: loopToolName,
            arguments: JSON.stringify(loopInput),
            status: 'completed',
          },
        ];
  return responsesBody(`resp_loop_${kind}`, output, inputTokens(request));
}

/** A completed Responses body holding `output`, with usage reporting `inputTokens`. */
export function responsesBody(id: string, output: unknown[], inputTokens = 1000): unknown {
  return {
    id,
    object: 'response',
    created_at: 1_700_000_000,
    model: 'gpt-5',
    status: 'completed',
    output,
    incomplete_details: null,
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 10 },
      total_tokens: inputTokens + 20,
    },
  };
}

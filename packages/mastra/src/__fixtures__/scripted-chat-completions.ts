import type { Reply, TestServer } from '@compaction/testing/loopback-server';
import type { ScriptBlock, ScriptedTurn } from './file-reading-script.js';

/** A Chat Completions request body, as far as the script reads it. */
export interface ChatBody {
  stream?: boolean;
  tools?: Array<{ function: { name: string; parameters: { properties?: Record<string, unknown> } } }>;
  messages: Array<{
    role: string;
    content?: string | null | Array<{ type: string; text?: string }>;
    tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  }>;
}

/**
 * Answers `/v1/chat/completions` on a loopback server as OpenAI's API does (a JSON completion, or its
 * server-sent chunks when `stream` is set), with what `decide` makes of each request.
 */
export function scriptChatCompletions(
  server: TestServer,
  decide: (blocks: ScriptBlock[], recallArguments: string[]) => ScriptedTurn,
): void {
  let number = 0;
  server.handle('/v1/chat/completions', (request) => {
    const body = request.body as ChatBody;
    const recall = body.tools?.find((tool) => tool.function.name === 'recall');
    const turn = decide(chatBlocks(body), Object.keys(recall?.function.parameters.properties ?? {}));
    number++;
    const toolCalls =
      turn.kind === 'tools'
        ? turn.calls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.input) },
          }))
        : undefined;
    const message = {
      role: 'assistant',
      content: turn.kind === 'text' ? turn.text : null,
      tool_calls: toolCalls,
    };
    const finishReason = turn.kind === 'text' ? 'stop' : 'tool_calls';
    const promptTokens = Math.ceil(request.rawBody.length / 4);
    const usage = { prompt_tokens: promptTokens, completion_tokens: 5, total_tokens: promptTokens + 5 };
    const envelope = { id: `chatcmpl-${number}`, created: 0, model: 'gpt-scripted' };
    if (body.stream !== true) {
      return {
        body: {
          ...envelope,
          object: 'chat.completion',
          choices: [{ index: 0, message, finish_reason: finishReason }],
          usage,
        },
      };
    }
    const chunk = (choices: unknown[], extra: object = {}) =>
      `data: ${JSON.stringify({ ...envelope, object: 'chat.completion.chunk', choices, ...extra })}\n\n`;
    const delta =
      toolCalls === undefined
        ? { role: 'assistant', content: message.content }
        : {
            role: 'assistant',
            content: null,
            tool_calls: toolCalls.map((call, index) => ({ index, ...call })),
          };
    const chunks = [
      chunk([{ index: 0, delta, finish_reason: null }]),
      chunk([{ index: 0, delta: {}, finish_reason: finishReason }]),
      chunk([], { usage }),
      'data: [DONE]\n\n',
    ];
    return { chunks } satisfies Reply;
  });
}

/** The blocks of a Chat Completions request, in order. */
function chatBlocks(body: ChatBody): ScriptBlock[] {
  return body.messages.flatMap((message): ScriptBlock[] => {
    const text =
      typeof message.content === 'string'
        ? message.content
        : (message.content ?? []).map((part) => part.text ?? '').join('');
    if (message.role === 'tool') return [{ role: 'tool', type: 'tool_result', text }];
    const blocks: ScriptBlock[] = text === '' ? [] : [{ role: message.role, type: 'text', text }];
    for (const call of message.tool_calls ?? []) {
      const input = JSON.parse(call.function.arguments) as Record<string, unknown>;
      blocks.push({ role: message.role, type: 'tool_use', name: call.function.name, input });
    }
    return blocks;
  });
}

import type { Reply, TestServer } from '@compaction/testing/loopback-server';

import type { ScriptBlock, ScriptedTurn } from './file-reading-script.js';

/** An Anthropic Messages request body, as far as the script reads it. */
export interface AnthropicBody {
  stream?: boolean;
  tools?: Array<{ name: string; input_schema: { properties?: Record<string, unknown> } }>;
  messages: Array<{ role: string; content: string | Array<Record<string, unknown>> }>;
}

/**
 * Answers `/v1/messages` on a loopback server as Anthropic's API does (a JSON message, or its server-sent events
 * when `stream` is set), with what `decide` makes of each request. Usage counts a token per 4 characters.
 */
export function scriptAnthropic(
  server: TestServer,
  decide: (blocks: ScriptBlock[], recallArguments: string[]) => ScriptedTurn,
): void {
  let number = 0;
  server.handle('/v1/messages', (request) => {
    const body = request.body as AnthropicBody;
    const recall = body.tools?.find((tool) => tool.name === 'recall');
    const turn = decide(anthropicBlocks(body), Object.keys(recall?.input_schema.properties ?? {}));
    number++;
    const content =
      turn.kind === 'text'
        ? [{ type: 'text', text: turn.text }]
        : turn.calls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.input }));
    const message = {
      id: `msg_${number}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-scripted',
      content,
      stop_reason: turn.kind === 'text' ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: Math.ceil(request.rawBody.length / 4), output_tokens: 5 },
    };
    return body.stream === true ? streamed(message) : { body: message };
  });
}

function streamed(message: { content: Array<Record<string, unknown>>; stop_reason: string }): Reply {
  const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  const chunks = [
    event('message_start', {
      type: 'message_start',
      message: { ...message, content: [], stop_reason: null },
    }),
  ];
  message.content.forEach((block, index) => {
    if (block.type === 'text') {
      chunks.push(
        event('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'text', text: '' },
        }),
        event('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'text_delta', text: block.text },
        }),
      );
    } else {
      chunks.push(
        event('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        }),
        event('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
        }),
      );
    }
    chunks.push(event('content_block_stop', { type: 'content_block_stop', index }));
  });
  chunks.push(
    event('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason },
      usage: { output_tokens: 5 },
    }),
    event('message_stop', { type: 'message_stop' }),
  );
  return { chunks };
}

/** The blocks of an Anthropic request, in order. */
function anthropicBlocks(body: AnthropicBody): ScriptBlock[] {
  return body.messages.flatMap((message): ScriptBlock[] => {
    const blocks =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    return blocks.flatMap((block): ScriptBlock[] => {
      if (block.type === 'text') return [{ role: message.role, type: 'text', text: String(block.text) }];
      if (block.type === 'tool_use') {
        const input = block.input as Record<string, unknown>;
        return [{ role: message.role, type: 'tool_use', name: String(block.name), input }];
      }
      if (block.type === 'tool_result')
        return [{ role: message.role, type: 'tool_result', text: JSON.stringify(block.content) }];
      return [];
    });
  });
}

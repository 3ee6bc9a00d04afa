import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An Anthropic Messages content block, as far as the stand-in reads it. */
type Block = Record<string, unknown>;
interface AnthropicMessage {
  role: string;
  content: string | Block[];
}

/** The local stand-in for Anthropic's Messages API. */
export interface ScriptedModel {
  /** `http://127.0.0.1:<port>/v1` */
  baseURL: string;
  /** Input tokens of each request it answered, as it counted them (about four characters a token). */
  requestTokens: number[];
  close(): Promise<void>;
}

/** The final answer. */
export const finalAnswer =
  'The half-cent rounding in src/billing/module-4.ts:77 truncates; it should round up.';

/**
 * What the stand-in does: reads, one call at a time, the files the latest request names; asked to recall, calls
 * `recall` with the first handle a placeholder names, then answers.
 */
function decide(messages: readonly AnthropicMessage[], recallArguments: string[], callId: string): Block[] {
  const blocks = messages.flatMap((message) =>
    typeof message.content === 'string'
      ? [{ role: message.role, block: { type: 'text', text: message.content } as Block }]
      : message.content.map((block) => ({ role: message.role, block })),
  );
  const start = blocks.findLastIndex(({ role, block }) => role === 'user' && block.type === 'text');
  const request = String(blocks[start]?.block.text ?? '');
  const called = blocks.slice(start + 1).flatMap(({ block }) => (block.type === 'tool_use' ? [block] : []));
  if (request.startsWith('Recall')) {
    const handle = /recall \\?"([A-Za-z0-9_-]+)\\?"/.exec(JSON.stringify(messages))?.[1];
    const recalled = blocks
      .slice(start + 1)
      .some(({ block }) => block.type === 'tool_result' && JSON.stringify(block).includes(':1 */'));
    if (recalled || handle === undefined)
      return [{ type: 'text', text: recalled ? finalAnswer : 'I could not recall it.' }];
    if (called.length > 0) return [{ type: 'text', text: 'I could not recall it.' }];
    // As a model fills a tool's arguments: the handle, and null for the ones it does not use.
    const input = Object.fromEntries(
      recallArguments.map((name) => [name, name === 'handle' ? handle : null]),
    );
    return [{ type: 'tool_use', id: callId, name: 'recall', input }];
  }
  const files = /read (.+)$/.exec(request)?.[1]?.split(', ') ?? [];
  const read = new Set(called.map((block) => (block.input as { path: string }).path));
  const next = files.find((file) => !read.has(file));
  if (next === undefined) return [{ type: 'text', text: `Read ${files.length} files; nothing wrong yet.` }];
  return [{ type: 'tool_use', id: callId, name: 'read_file', input: { path: next } }];
}

/** Starts the stand-in on a free port of 127.0.0.1. It answers as JSON, or as server-sent events when asked to stream. */
export async function startScriptedModel(): Promise<ScriptedModel> {
  const requestTokens: number[] = [];
  let calls = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(text) as {
        stream?: boolean;
        messages: AnthropicMessage[];
        tools?: Array<{ name: string; input_schema: { properties?: Record<string, unknown> } }>;
      };
      const recall = body.tools?.find((tool) => tool.name === 'recall');
      const inputTokens = Math.ceil(text.length / 4);
      requestTokens.push(inputTokens);
      const content = decide(
        body.messages,
        Object.keys(recall?.input_schema.properties ?? {}),
        `toolu_${++calls}`,
      );
      const stopReason = content[0]?.type === 'tool_use' ? 'tool_use' : 'end_turn';
      const message = {
        id: `msg_${calls}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-scripted',
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage: { input_tokens: inputTokens, output_tokens: 20 },
      };
      if (body.stream !== true) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const [name, data] of streamEvents(message))
        response.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requestTokens,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The events of a streamed answer, in the order the API sends them. */
function streamEvents(message: { content: Block[]; stop_reason: string }): Array<[string, unknown]> {
  const events: Array<[string, unknown]> = [
    ['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null } }],
  ];
  message.content.forEach((block, index) => {
    const start = block.type === 'text' ? { type: 'text', text: '' } : { ...block, input: {} };
    const delta =
      block.type === 'text'
        ? { type: 'text_delta', text: block.text }
        : { type: 'input_json_delta', partial_json: JSON.stringify(block.input) };
    events.push(
      ['content_block_start', { type: 'content_block_start', index, content_block: start }],
      ['content_block_delta', { type: 'content_block_delta', index, delta }],
      ['content_block_stop', { type: 'content_block_stop', index }],
    );
  });
  events.push(
    [
      'message_delta',
      { type: 'message_delta', delta: { stop_reason: message.stop_reason }, usage: { output_tokens: 20 } },
    ],
    ['message_stop', { type: 'message_stop' }],
  );
  return events;
}

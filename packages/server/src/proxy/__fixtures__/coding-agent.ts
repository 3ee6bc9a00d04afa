import type Anthropic from '@anthropic-ai/sdk';
import type { RecordedRequest, TestServer } from '@compaction/testing/loopback-server';

export type MessageParam = Anthropic.MessageParam;

/** Answers each request with a tool call reading the next file, as a coding agent's model would. */
export const answerWithToolCalls = (upstream: TestServer) => (request: RecordedRequest) => {
  const turn = upstream.requests.filter((each) => each.path === '/v1/messages').length;
  return {
    body: {
      id: `msg_${turn}`,
      type: 'message',
      role: 'assistant',
      model: (request.body as { model: string }).model,
      content: [
        { type: 'text', text: `Reading file ${turn} next.` },
        {
          type: 'tool_use',
          id: `toolu_${turn}`,
          name: 'read_file',
          input: { path: `src/module-${turn}.ts` },
        },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 100, output_tokens: 20 },
    },
  };
};

/** A file's content of about 450 tokens (36 lines), different for every turn. */
const fileContent = (turn: number, lines = 36) =>
  Array.from(
    { length: lines },
    (_, line) => `export const value${turn}_${line} = compute(${turn}, ${line}); // line ${line}`,
  ).join('\n');

export const tools: Anthropic.Tool[] = [
  {
    name: 'read_file',
    description: 'Reads a file of the repository.',
    input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
];

const ephemeral = { type: 'ephemeral' } as const;

/**
 * The messages with a cache breakpoint on the last block of each of the last two, as coding agents mark them on
 * every request (the marks move forward as the conversation grows).
 */
export function withMovingCacheMarks(messages: readonly MessageParam[]): MessageParam[] {
  return messages.map((message, index) => {
    if (index < messages.length - 2) return message;
    const blocks: Anthropic.ContentBlockParam[] =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...message.content];
    const last = blocks.length - 1;
    return {
      ...message,
      content: blocks.map((block, position) =>
        position === last ? ({ ...block, cache_control: ephemeral } as Anthropic.ContentBlockParam) : block,
      ),
    } as MessageParam;
  });
}

/** How the agent of {@link runAgent} writes its requests. */
export interface AgentOptions {
  model?: string;
  /** Where it starts: by default one user request. */
  history?: MessageParam[];
  /** Marks its system prompt and its last two messages for the prompt cache, as coding agents do. */
  cacheMarks?: boolean;
  /** Its tool definitions. Default {@link tools}. */
  tools?: Anthropic.Tool[];
  /** Lines of each file it reads (about 12.5 tokens each). Default 36. */
  fileLines?: number;
}

/** Runs the agent loop for `turns` requests, from `history`; returns what it sent each time and its history. */
export async function runAgent(
  client: Anthropic,
  turns: number,
  options: AgentOptions = {},
): Promise<{ sent: MessageParam[][]; history: MessageParam[] }> {
  const model = options.model ?? 'claude-sonnet-5-5';
  const opening: MessageParam[] = [
    { role: 'user', content: 'Find where compute() is defined and fix its rounding bug.' },
  ];
  const messages = structuredClone(options.history ?? opening);
  const sent: MessageParam[][] = [];
  for (let turn = 0; turn < turns; turn++) {
    const request = options.cacheMarks === true ? withMovingCacheMarks(messages) : structuredClone(messages);
    sent.push(request);
    const system = 'You are a careful coding agent.';
    const answer = await client.messages.create({
      model,
      max_tokens: 1024,
      system:
        options.cacheMarks === true ? [{ type: 'text', text: system, cache_control: ephemeral }] : system,
      tools: options.tools ?? tools,
      messages: request,
    });
    messages.push({ role: 'assistant', content: answer.content as Anthropic.ContentBlockParam[] });
    const call = answer.content.find((block) => block.type === 'tool_use');
    messages.push({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: call!.id,
          content: fileContent(messages.length, options.fileLines),
        },
      ],
    });
  }
  return { sent, history: messages };
}

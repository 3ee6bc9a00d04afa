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

/** A file's content of about 450 tokens, different for every turn. */
const fileContent = (turn: number) =>
  Array.from(
    { length: 36 },
    (_, line) => `export const value${turn}_${line} = compute(${turn}, ${line}); // line ${line}`,
  ).join('\n');

export const tools: Anthropic.Tool[] = [
  {
    name: 'read_file',
    description: 'Reads a file of the repository.',
    input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
];

/** Runs the agent loop for `turns` requests, from `history`; returns what it sent each time and its history. */
export async function runAgent(
  client: Anthropic,
  turns: number,
  model = 'claude-sonnet-5-5',
  history: MessageParam[] = [
    { role: 'user', content: 'Find where compute() is defined and fix its rounding bug.' },
  ],
): Promise<{ sent: MessageParam[][]; history: MessageParam[] }> {
  const messages = structuredClone(history);
  const sent: MessageParam[][] = [];
  for (let turn = 0; turn < turns; turn++) {
    sent.push(structuredClone(messages));
    const answer = await client.messages.create({
      model,
      max_tokens: 1024,
      system: 'You are a careful coding agent.',
      tools,
      messages,
    });
    messages.push({ role: 'assistant', content: answer.content as Anthropic.ContentBlockParam[] });
    const call = answer.content.find((block) => block.type === 'tool_use');
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: call!.id, content: fileContent(messages.length) }],
    });
  }
  return { sent, history: messages };
}

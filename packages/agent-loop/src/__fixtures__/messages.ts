import type { AssistantMessage, Message, UserMessage } from '@compaction/core';

const text = (value: string) => [{ type: 'text' as const, text: value }];

export const user = (value: string): UserMessage => ({ role: 'user', content: text(value) });
export const assistant = (value: string): AssistantMessage => ({ role: 'assistant', content: text(value) });

/** An assistant message calling `bash` once per id. */
export function calls(...ids: string[]): AssistantMessage {
  const content = ids.map((toolCallId) => ({
    type: 'tool-call' as const,
    toolCallId,
    toolName: 'bash',
    input: { command: `run ${toolCallId}` },
  }));
  return { role: 'assistant', content };
}

/** A system prompt, a task, `steps` answered tool calls with outputs of `outputSize` characters, a last request. */
export function conversation(steps: number, outputSize = 200): Message[] {
  const turns = Array.from({ length: steps }, (_, index): Message[] => [
    calls(`call_${index}`),
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: `call_${index}`,
          toolName: 'bash',
          output: 'x'.repeat(outputSize),
        },
      ],
    },
  ]);
  return [
    { role: 'system', content: text('You are a coding agent.') },
    user('Fix the failing test.'),
    ...turns.flat(),
    user('Now summarize what you changed.'),
  ];
}

import type {
  AssistantMessage,
  Message,
  SystemMessage,
  ToolMessage,
  UserMessage,
} from '../messages/message.js';

export const system = (text: string): SystemMessage => ({
  role: 'system',
  content: [{ type: 'text', text }],
});
export const user = (text: string): UserMessage => ({ role: 'user', content: [{ type: 'text', text }] });
export const assistant = (text: string): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
});

/** An assistant message calling tools with the given ids. */
export const calls = (...ids: string[]): AssistantMessage => ({
  role: 'assistant',
  content: ids.map((id) => ({
    type: 'tool-call' as const,
    toolCallId: id,
    toolName: 'bash',
    input: { command: `run ${id}` },
  })),
});

/** A tool message answering the given ids. */
export const results = (...ids: string[]): ToolMessage => ({
  role: 'tool',
  content: ids.map((id) => ({
    type: 'tool-result' as const,
    toolCallId: id,
    toolName: 'bash',
    output: `output of ${id}`,
  })),
});

/** A small valid coding conversation of `steps` tool turns after a system prompt and a task. */
export function conversation(steps: number, outputSize = 200): Message[] {
  const messages: Message[] = [system('You are a coding agent.'), user('Fix the failing test.')];
  for (let index = 0; index < steps; index++) {
    const id = `call_${index}`;
    messages.push(calls(id), {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: id, toolName: 'bash', output: 'x'.repeat(outputSize) }],
    });
  }
  messages.push(user('Now summarize what you changed.'));
  return messages;
}

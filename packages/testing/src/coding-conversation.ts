import type { AssistantMessage, Message, SystemMessage, ToolMessage, UserMessage } from '@compaction/core';

/** A system message with one text part. */
export const systemMessage = (text: string): SystemMessage => ({
  role: 'system',
  content: [{ type: 'text', text }],
});

/** A user message with one text part. */
export const userMessage = (text: string): UserMessage => ({
  role: 'user',
  content: [{ type: 'text', text }],
});

/** An assistant message with one text part. */
export const assistantMessage = (text: string): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
});

/** About `size` characters of test-runner output, starting with `label`. */
export function testRunnerLog(label: string, size: number): string {
  const lines = [`${label}:`];
  let length = lines[0]!.length;
  for (let line = 1; length < size; line++) {
    const text = `PASS tests/case_${line}.test.ts (${line % 7} tests) ${line * 3}ms`;
    lines.push(text);
    length += text.length + 1;
  }
  return lines.join('\n').slice(0, size);
}

/** An assistant message calling `bash` once, and the tool message with its result of `size` characters. */
export function toolTurn(id: string, size: number): [AssistantMessage, ToolMessage] {
  return [
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: id, toolName: 'bash', input: { command: `run ${id}` } }],
    },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: id, toolName: 'bash', output: testRunnerLog(id, size) }],
    },
  ];
}

/**
 * A small coding-agent conversation for strategy tests: a system prompt, a task, `steps` tool turns with
 * results of `size` characters, and a new request.
 */
export function codingConversation(steps: number, size = 400): Message[] {
  const messages: Message[] = [
    systemMessage('You are a coding agent.'),
    userMessage('Fix the failing test in src/cache.ts.'),
  ];
  for (let index = 0; index < steps; index++) messages.push(...toolTurn(`call_${index}`, size));
  messages.push(userMessage('Now explain what you changed.'));
  return messages;
}

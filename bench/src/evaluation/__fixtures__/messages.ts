import type { AssistantMessage, JSONValue, Message, ToolMessage, UserMessage } from '@compaction/core';

export const user = (text: string): UserMessage => ({ role: 'user', content: [{ type: 'text', text }] });

export const assistant = (text: string): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
});

/** An assistant message calling one tool, and the tool message with its result. */
export function toolTurn(
  id: string,
  toolName: string,
  input: JSONValue,
  output: string,
): [AssistantMessage, ToolMessage] {
  return [
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName, input }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName, output }] },
  ];
}

/** A coding session: a task, `turns` bash calls with long outputs, and a last request. */
export function codingSession(turns: number, outputCharacters = 2000): Message[] {
  const messages: Message[] = [
    { role: 'system', content: [{ type: 'text', text: 'You are a coding agent.' }] },
    user('Fix the failing test in src/app.py'),
  ];
  for (let index = 0; index < turns; index++) {
    messages.push(
      ...toolTurn(
        `call-${index}`,
        'bash',
        { command: `python -m pytest tests/test_${index}.py` },
        `line ${index}\n`.repeat(Math.ceil(outputCharacters / 8)),
      ),
    );
  }
  messages.push(user('Now also update the changelog.'), assistant('Done.'));
  return messages;
}

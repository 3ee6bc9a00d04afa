import type { AssistantMessage, SystemMessage, ToolMessage, UserMessage } from '@compaction/core';

/** A builder of messages in `role` that hold one text. */
const textIn =
  <Role extends 'system' | 'user' | 'assistant'>(role: Role) =>
  (text: string) => ({ role, content: [{ type: 'text' as const, text }] });

export const system: (text: string) => SystemMessage = textIn('system');
export const user: (text: string) => UserMessage = textIn('user');
export const assistant: (text: string) => AssistantMessage = textIn('assistant');

/** An assistant message calling `bash` once per id. */
export const calls = (...ids: string[]): AssistantMessage => ({
  role: 'assistant',
  content: ids.map((toolCallId) => ({
    type: 'tool-call',
    toolCallId,
    toolName: 'bash',
    input: { id: toolCallId },
  })),
});

/** A tool message answering each id. */
export const results = (...ids: string[]): ToolMessage => ({
  role: 'tool',
  content: ids.map((toolCallId) => ({
    type: 'tool-result',
    toolCallId,
    toolName: 'bash',
    output: `${toolCallId} done`,
  })),
});

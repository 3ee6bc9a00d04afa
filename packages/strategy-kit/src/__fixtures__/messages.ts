import type { AssistantMessage, SystemMessage, ToolMessage, UserMessage } from '@compaction/core';

export const system = (text: string): SystemMessage => ({
  role: 'system',
  content: [{ type: 'text', text }],
});
export const user = (text: string): UserMessage => ({ role: 'user', content: [{ type: 'text', text }] });
export const assistant = (text: string): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
});

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

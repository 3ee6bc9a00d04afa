import type { Message, ToolCallPart, ToolResultPart } from './message.js';

/** The tool calls of a message (empty unless it is an assistant message that calls tools). */
export function toolCallsOf(message: Message): ToolCallPart[] {
  if (message.role !== 'assistant') return [];
  return message.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
}

/** The tool results of a message (empty unless it is a tool message). */
export function toolResultsOf(message: Message): ToolResultPart[] {
  return message.role === 'tool' ? message.content : [];
}

/** The plain text of a message's text parts, joined by newlines. */
export function textOf(message: Message): string {
  const texts: string[] = [];
  for (const part of message.content) if (part.type === 'text') texts.push(part.text);
  return texts.join('\n');
}

/**
 * Index of the newest user request: the last `user` message. Every strategy keeps it verbatim.
 * Returns -1 when there is none.
 */
export function latestUserMessageIndex(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index]!.role === 'user') return index;
  }
  return -1;
}

/** Index of the original task: the first `user` message, or -1. */
export function firstUserMessageIndex(messages: readonly Message[]): number {
  return messages.findIndex((message) => message.role === 'user');
}

import type { Message, ToolResultPart } from '@compaction/core';
import { recallHandlesIn } from '@compaction/strategy-kit';

/** Every string inside `value` (texts, tool outputs, inputs), in order. */
export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsIn);
  return [];
}

/** The handles the recall hints of `messages` name, each once. */
export function handlesNamedIn(messages: readonly Message[]): string[] {
  return [...new Set(stringsIn(messages.map((message) => message.content)).flatMap(recallHandlesIn))];
}

/** The tool result part that names `handle`, if a tool result names it (a cleared or shortened result). */
export function toolResultNaming(messages: readonly Message[], handle: string): ToolResultPart | undefined {
  for (const message of messages) {
    for (const part of message.content) {
      if (part.type === 'tool-result' && stringsIn(part.output).some((text) => text.includes(`"${handle}"`)))
        return part;
    }
  }
  return undefined;
}

/** The text of a tool result's output: the output itself, or its text parts one after another. */
export function outputText(part: ToolResultPart): string {
  if (typeof part.output === 'string') return part.output;
  return part.output.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n');
}

/** The original tool result of the call `toolCallId`. */
export function originalResult(messages: readonly Message[], toolCallId: string): ToolResultPart | undefined {
  for (const message of messages)
    for (const part of message.content)
      if (part.type === 'tool-result' && part.toolCallId === toolCallId) return part;
  return undefined;
}

/** The messages of `input` that are not in `output` (compared as JSON), in order. */
export function removedMessages(input: readonly Message[], output: readonly Message[]): Message[] {
  const kept = new Map<string, number>();
  for (const message of output) {
    const key = JSON.stringify(message);
    kept.set(key, (kept.get(key) ?? 0) + 1);
  }
  return input.filter((message) => {
    const key = JSON.stringify(message);
    const count = kept.get(key) ?? 0;
    if (count === 0) return true;
    kept.set(key, count - 1);
    return false;
  });
}

/**
 * Whether `text` holds every text of `messages` (their texts, tool calls' names, tool results' outputs), in
 * their order: a rendering of them that lost nothing of what they said.
 */
export function holdsInOrder(text: string, messages: readonly Message[]): string | undefined {
  let position = 0;
  for (const [index, message] of messages.entries()) {
    for (const part of message.content) {
      const pieces =
        part.type === 'text'
          ? [part.text]
          : part.type === 'tool-call'
            ? [part.toolName]
            : part.type === 'tool-result'
              ? [outputText(part)]
              : [];
      for (const piece of pieces) {
        if (piece === '') continue;
        const found = text.indexOf(piece, position);
        if (found === -1) return `message ${index} (${message.role}): "${piece.slice(0, 80)}" is missing`;
        position = found + piece.length;
      }
    }
  }
  return undefined;
}

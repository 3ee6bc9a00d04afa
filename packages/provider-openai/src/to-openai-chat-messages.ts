import { InvalidMessagesError, type Message, type MessageIssue } from '@compaction/core';
import { type WrittenChatMessage, writeChatMessage } from './openai-chat-message-writer.js';
import type { OpenAIChatMessageParam } from './openai-chat-request.js';

/** Options of {@link toOpenAIChatMessages}. */
export interface ToOpenAIChatMessagesOptions {
  /** Role for system messages that do not say (reasoning models prefer `developer`). Default `system`. */
  systemRole?: 'system' | 'developer';
}

/**
 * Converts core messages to Chat Completions messages, the inverse of {@link fromOpenAIChatMessages}:
 * messages that came from Chat Completions and were not changed are written back as they were, byte for
 * byte once serialized. The result is valid for the API:
 *
 * - a tool message becomes one `tool` message per result; image or file outputs, which tool messages
 *   cannot carry, are rejected; a result of the legacy function calling goes back as a `function` message,
 *   and its call as the assistant's `function_call`;
 * - reasoning parts are dropped (Chat Completions takes no reasoning back), and an assistant message left
 *   empty by that is dropped;
 * - every `tool` (or `function`) message must answer a call of the assistant message before it, and every
 *   call must be answered before the next other message (calls at the very end may still be waiting);
 *   otherwise {@link InvalidMessagesError} is thrown (run core's `repairHistory` first).
 *
 * Compaction's own marks (pins, `joinsPrevious`...) are never written.
 */
export function toOpenAIChatMessages(
  messages: Message[],
  options: ToOpenAIChatMessagesOptions = {},
): OpenAIChatMessageParam[] {
  const issues: MessageIssue[] = [];
  const written: WrittenChatMessage[] = [];
  /** The core index of each written message, for error reports. */
  const sources: number[] = [];
  messages.forEach((message, index) => {
    const report = (path: string, text: string) => issues.push({ index, path, message: text });
    for (const item of writeChatMessage(message, options.systemRole ?? 'system', report)) {
      written.push(item);
      sources.push(index);
    }
  });
  if (issues.length === 0) checkToolPairing(written, sources, issues);
  if (issues.length > 0) throw new InvalidMessagesError({ issues });
  return written.map((item) => item.message) as unknown as OpenAIChatMessageParam[];
}

function checkToolPairing(written: WrittenChatMessage[], sources: number[], issues: MessageIssue[]): void {
  let open = new Set<string>();
  let answered = new Set<string>();
  let lastAssistant = -1;
  written.forEach((item, position) => {
    const index = sources[position]!;
    if (item.answers !== undefined) {
      const id = item.answers;
      if (!open.has(id) || answered.has(id)) {
        issues.push({
          index,
          path: 'content',
          message: `tool result ${id} does not answer a call of the assistant message before it`,
        });
      }
      answered.add(id);
      return;
    }
    const missing = [...open].filter((id) => !answered.has(id));
    if (missing.length > 0) {
      issues.push({
        index: lastAssistant,
        path: 'content',
        message: `tool call(s) ${missing.join(', ')} have no result before the next message`,
      });
    }
    open = new Set(item.calls);
    answered = new Set();
    if (item.message.role === 'assistant') lastAssistant = index;
  });
}

import type { Message, UserMessage } from '@compaction/core';
import {
  assistantParts,
  type ClaudeCodeContentBlock,
  toolResultPart,
  userParts,
} from './claude-code-blocks.js';

interface SessionLine {
  type?: string;
  message?: { id?: string; role?: string; content?: string | ClaudeCodeContentBlock[] };
}

/**
 * Reads a Claude Code session log (JSONL) into core messages, line after line in file order: lines that are
 * not user or assistant messages are skipped, lines of one API response (same `message.id`) are merged,
 * thinking blocks become reasoning with their signatures, and tool results (which Anthropic carries in user
 * turns) become tool messages.
 */
export function claudeCodeToMessages(jsonl: string): Message[] {
  const messages: Message[] = [];
  const toolNames = new Map<string, string>();
  let lastAssistantId: string | undefined;
  for (const line of jsonl.split('\n')) {
    if (line.trim() === '') continue;
    const entry = JSON.parse(line) as SessionLine;
    const message = entry.message;
    if ((entry.type !== 'user' && entry.type !== 'assistant') || message === undefined) continue;
    const blocks: ClaudeCodeContentBlock[] =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : (message.content ?? []);
    if (entry.type === 'assistant') {
      const content = blocks.flatMap((block) => assistantParts(block, toolNames));
      const previous = messages.at(-1);
      if (message.id !== undefined && message.id === lastAssistantId && previous?.role === 'assistant') {
        messages[messages.length - 1] = { ...previous, content: [...previous.content, ...content] };
      } else {
        messages.push({ role: 'assistant', content });
      }
      lastAssistantId = message.id;
      continue;
    }
    lastAssistantId = undefined;
    const results = blocks.flatMap((block) =>
      isToolResult(block) ? [toolResultPart(block, toolNames)] : [],
    );
    const userContent: UserMessage['content'] = blocks.flatMap((block) =>
      isToolResult(block) ? [] : userParts(block),
    );
    if (results.length > 0) messages.push({ role: 'tool', content: results });
    if (userContent.length > 0) messages.push({ role: 'user', content: userContent });
  }
  return messages;
}

/** Whether a block of a user line is a tool result (one that names the call it answers). */
export function isToolResult(block: ClaudeCodeContentBlock): boolean {
  return block.type === 'tool_result' && typeof block.tool_use_id === 'string';
}

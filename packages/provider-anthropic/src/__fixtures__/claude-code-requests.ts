import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AnthropicContentBlock, AnthropicMessage, AnthropicRequest } from '../anthropic-request.js';

/** One Claude Code session rebuilt as the Messages request that would continue it. */
export interface ClaudeCodeRequest {
  name: string;
  request: AnthropicRequest;
}

/**
 * Reads every Claude Code session JSONL under `directory` (subagent logs included) as a Messages request:
 * user and assistant events in order, lines sharing `message.id` (one API response written over several
 * lines) merged into one message, other events (snapshots, progress, queue operations) skipped.
 */
export function readClaudeCodeRequests(directory: string): ClaudeCodeRequest[] {
  return jsonlFiles(directory).map((path) => ({
    name: path.slice(directory.length + 1),
    request: { messages: messagesOf(readFileSync(path, 'utf8')) },
  }));
}

function messagesOf(text: string): AnthropicMessage[] {
  const messages: AnthropicMessage[] = [];
  let lastId: string | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const event = JSON.parse(line) as {
      type?: string;
      message?: { id?: string; role?: string; content?: unknown };
    };
    if ((event.type !== 'user' && event.type !== 'assistant') || event.message === undefined) continue;
    const { id, role, content } = event.message;
    if (role !== 'user' && role !== 'assistant') continue;
    const previous = messages.at(-1);
    if (id !== undefined && id === lastId && previous !== undefined && Array.isArray(previous.content)) {
      previous.content.push(...(content as AnthropicContentBlock[]));
      continue;
    }
    lastId = id;
    messages.push({
      role,
      content: typeof content === 'string' ? content : [...(content as AnthropicContentBlock[])],
    });
  }
  return messages;
}

function jsonlFiles(directory: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(directory).sort()) {
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) files.push(...jsonlFiles(path));
    else if (entry.endsWith('.jsonl')) files.push(path);
  }
  return files;
}

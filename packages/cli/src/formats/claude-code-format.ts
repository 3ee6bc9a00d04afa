import type {
  AssistantMessage,
  JSONValue,
  Message,
  Part,
  ToolResultContentPart,
  ToolResultPart,
  UserMessage,
} from '@compaction/core';
import { inputError } from '../errors/cli-error.js';
import { type ConversationFormat, isRecord } from './conversation-format.js';
import { parseJsonWithLocation } from './json-location.js';

interface ContentBlock {
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  data?: string;
  id?: string;
  name?: string;
  input?: JSONValue;
  tool_use_id?: string;
  content?: string | ContentBlock[];
  is_error?: boolean;
  source?: { type: string; media_type?: string; data?: string; url?: string };
}

/**
 * A Claude Code session log: one JSON event per line. User and assistant events carry an Anthropic message;
 * lines of one API response share `message.id` and are merged; other events (summaries, file snapshots,
 * system notices) are skipped. Written back as one event line per message.
 */
export const claudeCodeFormat: ConversationFormat = {
  name: 'claude-code',
  read(input) {
    if (typeof input !== 'string') throw inputError('a Claude Code session must be JSON lines text');
    return { format: 'claude-code', messages: claudeCodeLinesToMessages(input) };
  },
  write(messages) {
    return messages.map((message) => `${JSON.stringify(messageToLine(message))}\n`).join('');
  },
};

/** Whether a text looks like JSON lines: several lines, each a JSON object. */
export function looksLikeJsonLines(text: string): boolean {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length < 2) return false;
  const first = parseJsonWithLocation(lines[0]!);
  return first.ok && isRecord(first.value);
}

function claudeCodeLinesToMessages(text: string): Message[] {
  const messages: Message[] = [];
  const toolNames = new Map<string, string>();
  let lastAssistantId: string | undefined;
  let sawEvent = false;
  for (const [lineIndex, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const parsed = parseJsonWithLocation(line);
    if (!parsed.ok) {
      throw inputError(
        `invalid JSON on line ${lineIndex + 1}, column ${parsed.location.column}: ${parsed.reason}`,
      );
    }
    const entry = parsed.value;
    if (!isRecord(entry)) throw inputError(`line ${lineIndex + 1} is not a JSON object`);
    sawEvent = true;
    const message = entry.message;
    if (!isRecord(message)) continue;
    const type = entry.type;
    if (type === 'system' && message.role === 'system') {
      messages.push({ role: 'system', content: [{ type: 'text', text: textContent(message.content) }] });
      continue;
    }
    if (type !== 'user' && type !== 'assistant') continue;
    const content = message.content;
    if (typeof content !== 'string' && !Array.isArray(content)) {
      throw inputError(`line ${lineIndex + 1}: message.content must be a string or a list of blocks`);
    }
    const blocks: ContentBlock[] =
      typeof content === 'string' ? [{ type: 'text', text: content }] : (content as ContentBlock[]);
    if (type === 'assistant') {
      const parts = blocks.flatMap((block) => assistantPart(block, toolNames));
      const previous = messages.at(-1);
      const id = typeof message.id === 'string' ? message.id : undefined;
      if (id !== undefined && id === lastAssistantId && previous?.role === 'assistant') {
        messages[messages.length - 1] = { ...previous, content: [...previous.content, ...parts] };
      } else {
        messages.push({ role: 'assistant', content: parts } satisfies AssistantMessage);
      }
      lastAssistantId = id;
      continue;
    }
    lastAssistantId = undefined;
    const results: ToolResultPart[] = [];
    const userContent: UserMessage['content'] = [];
    for (const block of blocks) {
      if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
        results.push({
          type: 'tool-result',
          toolCallId: block.tool_use_id,
          toolName: toolNames.get(block.tool_use_id) ?? 'tool',
          output:
            typeof block.content === 'string' ? block.content : (block.content ?? []).flatMap(resultPart),
          ...(block.is_error ? { isError: true } : {}),
        });
      } else {
        userContent.push(...resultPart(block));
      }
    }
    if (results.length > 0) messages.push({ role: 'tool', content: results });
    if (userContent.length > 0) messages.push({ role: 'user', content: userContent });
  }
  if (!sawEvent) throw inputError('the session log has no events');
  return messages;
}

function textContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) => (isRecord(block) && typeof block.text === 'string' ? block.text : ''))
    .join('\n');
}

function assistantPart(block: ContentBlock, toolNames: Map<string, string>): AssistantMessage['content'] {
  switch (block.type) {
    case 'text':
      return [{ type: 'text', text: block.text ?? '' }];
    case 'thinking':
      return [
        {
          type: 'reasoning',
          text: block.thinking ?? '',
          ...(block.signature ? { signature: block.signature } : {}),
        },
      ];
    case 'redacted_thinking':
      return [{ type: 'reasoning', text: '', redactedData: block.data ?? '' }];
    case 'tool_use':
      toolNames.set(block.id ?? '', block.name ?? 'tool');
      return [
        {
          type: 'tool-call',
          toolCallId: block.id ?? '',
          toolName: block.name ?? 'tool',
          input: block.input ?? {},
        },
      ];
    default:
      return [];
  }
}

function resultPart(block: ContentBlock): ToolResultContentPart[] {
  if (block.type === 'text') return [{ type: 'text', text: block.text ?? '' }];
  if (block.type === 'image' && block.source !== undefined) {
    const image = block.source.data ?? block.source.url ?? '';
    if (image === '') return [];
    return [
      { type: 'image', image, ...(block.source.media_type ? { mediaType: block.source.media_type } : {}) },
    ];
  }
  return [];
}

function messageToLine(message: Message): Record<string, unknown> {
  const type = message.role === 'tool' ? 'user' : message.role;
  const role = message.role === 'tool' ? 'user' : message.role;
  return {
    type,
    ...(message.metadata?.compaction === undefined ? {} : { compaction: message.metadata.compaction }),
    message: { role, content: message.content.map(partToBlock) },
  };
}

function partToBlock(part: Part): Record<string, unknown> {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'reasoning':
      return part.redactedData !== undefined && part.text === ''
        ? { type: 'redacted_thinking', data: part.redactedData }
        : { type: 'thinking', thinking: part.text, ...(part.signature ? { signature: part.signature } : {}) };
    case 'tool-call':
      return { type: 'tool_use', id: part.toolCallId, name: part.toolName, input: part.input };
    case 'tool-result':
      return {
        type: 'tool_result',
        tool_use_id: part.toolCallId,
        content: typeof part.output === 'string' ? part.output : part.output.map(partToBlock),
        ...(part.isError ? { is_error: true } : {}),
      };
    case 'image':
      return /^https?:/.test(part.image)
        ? { type: 'image', source: { type: 'url', url: part.image } }
        : {
            type: 'image',
            source: { type: 'base64', media_type: part.mediaType ?? 'image/png', data: part.image },
          };
    case 'file':
      return { type: 'document', source: { type: 'text', media_type: part.mediaType, data: part.data } };
  }
}

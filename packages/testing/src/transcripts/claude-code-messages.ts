import type {
  AssistantMessage,
  JSONValue,
  Message,
  ToolResultContentPart,
  ToolResultPart,
  UserMessage,
} from '@compaction/core';

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

interface SessionLine {
  type?: string;
  message?: { id?: string; role?: string; content?: string | ContentBlock[] };
}

/**
 * Reads a Claude Code session log (JSONL) into core messages: lines that are not user or assistant messages
 * are skipped, lines of one API response (same `message.id`) are merged, thinking blocks become reasoning with
 * their signatures, and tool results (which Anthropic carries in user turns) become tool messages.
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
    const blocks: ContentBlock[] =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : (message.content ?? []);
    if (entry.type === 'assistant') {
      const content = blocks.flatMap((block) => assistantPart(block, toolNames));
      const previous = messages.at(-1);
      if (message.id !== undefined && message.id === lastAssistantId && previous?.role === 'assistant') {
        messages[messages.length - 1] = { ...previous, content: [...previous.content, ...content] };
      } else {
        messages.push({ role: 'assistant', content } satisfies AssistantMessage);
      }
      lastAssistantId = message.id;
      continue;
    }
    lastAssistantId = undefined;
    const results: ToolResultPart[] = [];
    const userContent: UserMessage['content'] = [];
    for (const block of blocks) {
      if (block.type === 'tool_result' && block.tool_use_id !== undefined) {
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
  return messages;
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
    return image === ''
      ? []
      : [
          {
            type: 'image',
            image,
            ...(block.source.media_type ? { mediaType: block.source.media_type } : {}),
          },
        ];
  }
  return [];
}

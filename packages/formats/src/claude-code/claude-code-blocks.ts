import type {
  AssistantMessage,
  JSONValue,
  Part,
  ToolResultContentPart,
  ToolResultPart,
  UserMessage,
} from '@compaction/core';

/** An Anthropic content block as Claude Code logs it; fields not read here are kept as they are. */
export interface ClaudeCodeContentBlock {
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  data?: string;
  id?: string;
  name?: string;
  input?: JSONValue;
  tool_use_id?: string;
  content?: string | ClaudeCodeContentBlock[];
  is_error?: boolean;
  source?: { type: string; media_type?: string; data?: string; url?: string };
  [field: string]: unknown;
}

/**
 * The core parts of an assistant block. A block type core has no part for (server tool blocks...) gives none:
 * it is not counted, and is written back unchanged with its line.
 */
export function assistantParts(
  block: ClaudeCodeContentBlock,
  toolNames: Map<string, string>,
): AssistantMessage['content'] {
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

/** The tool-result part of a `tool_result` block. */
export function toolResultPart(
  block: ClaudeCodeContentBlock,
  toolNames: Map<string, string>,
): ToolResultPart {
  const toolCallId = block.tool_use_id ?? '';
  return {
    type: 'tool-result',
    toolCallId,
    toolName: toolNames.get(toolCallId) ?? 'tool',
    output: typeof block.content === 'string' ? block.content : (block.content ?? []).flatMap(userParts),
    ...(block.is_error ? { isError: true } : {}),
  };
}

/** The core parts of a user block (text and images; other block types give none). */
export function userParts(block: ClaudeCodeContentBlock): ToolResultContentPart[] & UserMessage['content'] {
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

/** The block for a core part, for lines Compaction writes itself. */
export function partToBlock(part: Part): ClaudeCodeContentBlock {
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

/**
 * The block that says what a changed part says, keeping the original block's other fields (`cache_control`,
 * a tool result's own fields...): only the fields the part carries are replaced.
 */
export function updatedBlock(original: ClaudeCodeContentBlock, part: Part): ClaudeCodeContentBlock {
  const fresh = partToBlock(part);
  if (fresh.type !== original.type) return fresh;
  const updated: ClaudeCodeContentBlock = { ...original, ...fresh };
  // A result that is no longer an error loses the flag; an explicit `is_error: false` stays as it was.
  if (part.type === 'tool-result' && !part.isError && original.is_error === true) delete updated.is_error;
  return updated;
}

/** Whether a block of a user line is a tool result (one that names the call it answers). */
export function isToolResult(block: ClaudeCodeContentBlock): boolean {
  return block.type === 'tool_result' && typeof block.tool_use_id === 'string';
}

import type { FilePart, ImagePart, Message, ToolResultPart } from '@compaction/core';

/**
 * The text of a tool result as it is archived and recalled: the output itself when it is a string; its text
 * parts, with a bracketed note for each image or file, one per line, when it is a list.
 */
export function toolResultText(part: ToolResultPart): string {
  if (typeof part.output === 'string') return part.output;
  return part.output.map((item) => (item.type === 'text' ? item.text : mediaNote(item))).join('\n');
}

/**
 * Messages as a readable transcript, for the archive: each message under a `[role]` line, blank lines
 * between messages. Lossless for text, reasoning, tool calls (tool, id and the input as JSON) and tool results
 * (tool, id, whether it failed, then the text of {@link toolResultText}); images and files become a bracketed
 * note (their data is not text a model can read back). Deterministic: the same messages give the same text,
 * and so the same handle.
 */
export function renderArchivedMessages(messages: readonly Message[]): string {
  return messages.map(renderMessage).join('\n\n');
}

function renderMessage(message: Message): string {
  const lines = [`[${message.role}]`];
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        lines.push(part.text);
        break;
      case 'reasoning':
        lines.push(`[reasoning]\n${part.text}`);
        break;
      case 'tool-call':
        lines.push(`[tool call ${part.toolName} ${part.toolCallId}] ${JSON.stringify(part.input)}`);
        break;
      case 'tool-result':
        lines.push(
          `[tool result ${part.toolName} ${part.toolCallId}${part.isError === true ? ', error' : ''}]\n` +
            toolResultText(part),
        );
        break;
      default:
        lines.push(mediaNote(part));
    }
  }
  return lines.join('\n');
}

function mediaNote(part: ImagePart | FilePart): string {
  if (part.type === 'image') return `[image${part.mediaType === undefined ? '' : ` ${part.mediaType}`}]`;
  return `[file ${part.mediaType}${part.filename === undefined ? '' : ` ${part.filename}`}]`;
}

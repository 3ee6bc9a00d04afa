import {
  type JSONValue,
  type Metadata,
  type ToolCallPart,
  type ToolResultPart,
  truncateText,
} from '@compaction/core';

/** Whether a part was already shortened by an earlier run. */
export function wasShortened(part: { metadata?: Metadata }): boolean {
  const marks = part.metadata?.compaction;
  return typeof marks === 'object' && marks !== null && !Array.isArray(marks) && marks.kind === 'modified';
}

/** The part's metadata with the mark that makes a later round leave it alone. */
function markedMetadata(metadata: Metadata | undefined): Metadata {
  const compaction = { kind: 'modified', strategy: 'tool-result-truncation' };
  if (metadata === undefined) return { compaction };
  // The key comes before the spread: adding a key after a spread is a slow path in V8.
  const marked: Metadata = { compaction, ...metadata };
  marked.compaction = compaction;
  return marked;
}

/** A copy of a result with a new output, marked as shortened. */
function withOutput(part: ToolResultPart, output: string): ToolResultPart {
  const result: ToolResultPart = {
    type: 'tool-result',
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    output,
    metadata: markedMetadata(part.metadata),
  };
  if (part.isError !== undefined) result.isError = part.isError;
  return result;
}

/** Characters of a result's text (images and files are not text). */
export function resultCharacters(part: ToolResultPart): number {
  if (typeof part.output === 'string') return part.output.length;
  let characters = 0;
  for (const item of part.output) if (item.type === 'text') characters += item.text.length;
  return characters;
}

/**
 * The placeholder that replaces a masked result: the tool and the size removed, in few tokens (a history
 * masked in full carries one per old result, and every one is counted).
 */
export function maskText(toolName: string, characters: number): string {
  return `[${toolName} output removed: ${characters} characters]`;
}

/** A result of `characters` characters (see {@link resultCharacters}) replaced by {@link maskText}; whether it was an error is kept. */
export function maskResult(part: ToolResultPart, characters: number): ToolResultPart {
  return withOutput(part, maskText(part.toolName, characters));
}

/** A result cut to about `keepCharacters` of text; images and files in it are replaced by a note. */
export function truncateResult(part: ToolResultPart, keepCharacters: number): ToolResultPart {
  if (typeof part.output === 'string') {
    return withOutput(part, truncateText(part.output, keepCharacters));
  }
  const texts: string[] = [];
  let omittedParts = 0;
  for (const item of part.output) {
    if (item.type === 'text') texts.push(item.text);
    else omittedParts++;
  }
  const note = omittedParts > 0 ? `\n[${omittedParts} image or file parts omitted]` : '';
  return withOutput(part, truncateText(texts.join('\n'), keepCharacters) + note);
}

/** A call whose input was replaced by a note saying how much was removed; the call id and tool stay. */
export function clearInput(part: ToolCallPart, characters: number): ToolCallPart {
  const input: JSONValue = { omitted: `${characters} characters of input removed to save space` };
  return { ...part, input, metadata: markedMetadata(part.metadata) };
}

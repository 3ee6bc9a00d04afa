import type { Metadata, ToolResultPart } from '@compaction/core';
import { archivedToolResult, recallHandlesIn, recallHint } from './archive-item.js';
import { toolResultText } from './render-archived-messages.js';
import { truncateText } from './truncate-text.js';

/** Characters of a result's text (images and files are not text). */
export function toolResultCharacters(part: ToolResultPart): number {
  if (typeof part.output === 'string') return part.output.length;
  let characters = 0;
  for (const item of part.output) if (item.type === 'text') characters += item.text.length;
  return characters;
}

/**
 * A part's metadata with the mark of a part that `strategy` shortened (`compaction: { kind: 'modified',
 * strategy }`), so later rounds can tell, without reading the text, that it is no longer the original.
 */
export function shortenedPartMetadata(metadata: Metadata | undefined, strategy: string): Metadata {
  const compaction = { kind: 'modified', strategy };
  if (metadata === undefined) return { compaction };
  // The key comes before the spread: adding a key after a spread is a slow path in V8, and a strategy may
  // mark thousands of parts in one run.
  const marked: Metadata = { compaction, ...metadata };
  marked.compaction = compaction;
  return marked;
}

/** Whether a part carries the mark of {@link shortenedPartMetadata} (an earlier run shortened it). */
export function isShortenedPart(part: { metadata?: Metadata }): boolean {
  const marks = part.metadata?.compaction;
  return typeof marks === 'object' && marks !== null && !Array.isArray(marks) && marks.kind === 'modified';
}

/** A copy of a result with `output` in place of its own, marked as shortened; whether it was an error is kept. */
export function withShortenedOutput(part: ToolResultPart, output: string, strategy: string): ToolResultPart {
  const result: ToolResultPart = {
    type: 'tool-result',
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    output,
    metadata: shortenedPartMetadata(part.metadata, strategy),
  };
  if (part.isError !== undefined) result.isError = part.isError;
  return result;
}

/**
 * A result cut to about `keepCharacters` of text with {@link truncateText} (its start and its end around a
 * note of what was omitted); images and files in it become a one-line note. Marked as shortened by
 * `strategy`. With `archive`, the note names the recall handle of the whole result ({@link
 * archivedToolResult}; `archivedChanges` lists it). Every strategy that shortens tool results uses this one
 * cut.
 */
export function shortenToolResult(
  part: ToolResultPart,
  keepCharacters: number,
  strategy: string,
  archive = false,
): ToolResultPart {
  const recall = archive ? originalResultHint(part) : undefined;
  if (typeof part.output === 'string') {
    return withShortenedOutput(part, truncateText(part.output, keepCharacters, recall), strategy);
  }
  const texts: string[] = [];
  let omittedParts = 0;
  for (const item of part.output) {
    if (item.type === 'text') texts.push(item.text);
    else omittedParts++;
  }
  const note = omittedParts > 0 ? `\n[${omittedParts} image or file parts omitted]` : '';
  return withShortenedOutput(part, truncateText(texts.join('\n'), keepCharacters, recall) + note, strategy);
}

/**
 * The recall hint naming a result's whole original text: its own handle, or, for a result an earlier stage or
 * round already shortened, the handle that one's note names. The original is archived under that handle; the
 * shortened text in between is not worth one of its own, and the model gets the original in one call.
 */
export function originalResultHint(part: ToolResultPart): string {
  if (isShortenedPart(part)) {
    const [handle] = recallHandlesIn(toolResultText(part));
    if (handle !== undefined) return recallHint({ handle });
  }
  return recallHint(archivedToolResult(part));
}

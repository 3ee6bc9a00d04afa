import type { JSONValue, ToolCallPart, ToolResultPart } from '@compaction/core';
import {
  archivedToolInput,
  originalResultHint,
  recallHint,
  shortenedPartMetadata,
  withShortenedOutput,
} from '@compaction/strategy-kit';

/** The strategy's registered name, recorded on every part it shortens. */
export const strategyName = 'tool-result-truncation';

/**
 * The placeholder that replaces a masked result: the tool and the size removed, in few tokens (a history
 * masked in full carries one per old result, and every one is counted). With `recall` (the hint of the
 * archived result), it names where the whole output is: `[bash output, 2,141 characters, cleared: recall
 * "k3j9x0a2m1q"]`.
 */
export function maskText(toolName: string, characters: number, recall?: string): string {
  if (recall === undefined) return `[${toolName} output removed: ${characters} characters]`;
  return `[${toolName} output, ${groupDigits(characters)} characters, cleared: ${recall}]`;
}

/**
 * A result of `characters` characters (see `toolResultCharacters`) replaced by {@link maskText}; whether it
 * was an error is kept. With `archive`, the placeholder names the whole result's handle (`archivedToolResult`).
 */
export function maskResult(part: ToolResultPart, characters: number, archive = false): ToolResultPart {
  const recall = archive ? originalResultHint(part) : undefined;
  return withShortenedOutput(part, maskText(part.toolName, characters, recall), strategyName);
}

/**
 * A call whose input was replaced by a note saying how much was removed; the call id and tool stay. With
 * `archive`, the note names the handle of the input as JSON (`archivedToolInput`).
 */
export function clearInput(part: ToolCallPart, characters: number, archive = false): ToolCallPart {
  const removed = `${characters} characters of input removed to save space`;
  const omitted = archive ? `${removed}; ${recallHint(archivedToolInput(part))} for it` : removed;
  const input: JSONValue = { omitted };
  return { ...part, input, metadata: shortenedPartMetadata(part.metadata, strategyName) };
}

/** A count with its thousands grouped by commas, as people read sizes: 2,141. */
function groupDigits(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

import type { JSONValue, ToolCallPart, ToolResultPart } from '@compaction/core';
import { shortenedPartMetadata, withShortenedOutput } from '@compaction/strategy-kit';

/** The strategy's registered name, recorded on every part it shortens. */
export const strategyName = 'tool-result-truncation';

/**
 * The placeholder that replaces a masked result: the tool and the size removed, in few tokens (a history
 * masked in full carries one per old result, and every one is counted).
 */
export function maskText(toolName: string, characters: number): string {
  return `[${toolName} output removed: ${characters} characters]`;
}

/** A result of `characters` characters (see `toolResultCharacters`) replaced by {@link maskText}; whether it was an error is kept. */
export function maskResult(part: ToolResultPart, characters: number): ToolResultPart {
  return withShortenedOutput(part, maskText(part.toolName, characters), strategyName);
}

/** A call whose input was replaced by a note saying how much was removed; the call id and tool stay. */
export function clearInput(part: ToolCallPart, characters: number): ToolCallPart {
  const input: JSONValue = { omitted: `${characters} characters of input removed to save space` };
  return { ...part, input, metadata: shortenedPartMetadata(part.metadata, strategyName) };
}

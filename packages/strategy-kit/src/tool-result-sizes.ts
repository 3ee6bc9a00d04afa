import type { TokenCounter, ToolMessage, ToolResultPart } from '@compaction/core';
import { costliestRecallHint } from './archive-item.js';
import { shortenToolResult, toolResultCharacters } from './shorten-tool-result.js';

/** Tokens the note of a shortened result adds, left out of the room kept for the result's own text. */
export const truncationNoteTokens = 16;

/**
 * Tokens the note of a shortened or cleared result adds: {@link truncationNoteTokens}, and with `archive`
 * what its recall hint adds, counted on the costliest hint so the room is never short.
 */
export function truncationNoteCost(counter: TokenCounter, archive: boolean): number {
  if (!archive) return truncationNoteTokens;
  return truncationNoteTokens + counter.estimator.countText(`; ${costliestRecallHint} for the whole output`);
}

/** How large one result of a tool message is. */
export interface ToolResultSize {
  /** Characters of its text ({@link toolResultCharacters}). */
  characters: number;
  /** Its estimated share of its message's tokens. */
  tokens: number;
}

/**
 * The size of each result of a tool message that counts `messageTokens`. The counter measures whole
 * messages, so a result's share of the tokens follows its share of the message's text (0 for every result
 * of a message without text).
 */
export function toolResultSizes(message: ToolMessage, messageTokens: number): ToolResultSize[] {
  const characters = message.content.map(toolResultCharacters);
  const messageCharacters = characters.reduce((sum, value) => sum + value, 0);
  return characters.map((resultCharacters) => ({
    characters: resultCharacters,
    tokens: messageCharacters === 0 ? 0 : messageTokens * (resultCharacters / messageCharacters),
  }));
}

/**
 * A result cut to about `keepTokens` tokens of its text ({@link shortenToolResult}), converted to characters
 * at the result's own `charactersPerToken`, and marked as shortened by `strategy`; with `archive`, its note
 * names the whole result's recall handle.
 */
export function shortenToolResultToTokens(
  part: ToolResultPart,
  keepTokens: number,
  charactersPerToken: number,
  strategy: string,
  archive = false,
): ToolResultPart {
  const keepCharacters = Math.floor(Math.max(0, keepTokens) * charactersPerToken);
  return shortenToolResult(part, keepCharacters, strategy, archive);
}

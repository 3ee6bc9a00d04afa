import type { ToolMessage, ToolResultPart } from '@compaction/core';
import {
  fitToRoom,
  isShortenedPart,
  shortenToolResultToTokens,
  type ToolResultSize,
  toolResultSizes,
} from '@compaction/strategy-kit';
import { maskResult, strategyName } from './shorten-result.js';
import type { ToolResultTruncationOptions } from './tool-result-truncation-options.js';

/** What a run has shortened so far. */
export interface Tally {
  shortenedResults: number;
  /** Ids of the calls whose results were shortened in the current turn, when their inputs are cleared too. */
  changedCalls?: Set<string> | undefined;
}

/** A candidate replacement of the tool message, and what it counts. */
interface Counted {
  message: ToolMessage;
  tokens: number;
}

/** What {@link shortenToolMessage} works with. */
export interface ShortenToolMessageInput {
  /** How many of the message's results, from the first, are old (the rest are among the newest). */
  oldParts: number;
  messageTokens: number;
  options: Required<ToolResultTruncationOptions>;
  exempt: ReadonlySet<string>;
  tally: Tally;
  /** How far the history is over the target before this message. */
  excess: number;
  /** How far below the target the history may end (`wholeTurnSlack`). */
  slack: number;
  /** Whether shortened results name the recall handles of their whole text (`input.archive`). */
  archive: boolean;
  /** Tokens a note or placeholder adds (`truncationNoteCost`). */
  noteTokens: number;
  /** The message marked as changed, with `content`, and its count. */
  count: (content: ToolMessage['content']) => Counted;
}

/**
 * Shortens the old results of one tool message, in order, while the history is over its target, and
 * returns the changed message with its count (undefined when none is shortened). A result's tokens are
 * estimated from its share of the message's text; once the estimate says the target is met, the count
 * decides, so a message whose results count unlike their length neither stops short nor overshoots. When
 * the last result shortened took the history more than `slack` below the target, it is put back, and if
 * whole it would be over the target, it keeps as much of its start and end as the target allows (in either
 * mode): one huge result never takes the whole budget's worth with it.
 */
export function shortenToolMessage(
  message: ToolMessage,
  input: ShortenToolMessageInput,
): Counted | undefined {
  const { options, tally } = input;
  const parts = message.content;
  const sizes = toolResultSizes(message, input.messageTokens);
  if (sizes.every((size) => size.characters === 0)) return undefined;
  // The message's count at which the history meets its target.
  const goal = input.messageTokens - input.excess;
  let content: ToolMessage['content'] | undefined;
  let counted: Counted | undefined;
  // The content `counted` was counted with: its message holds this very array, and the counter memoizes
  // that message's count, so the array is copied before any further change, never changed under it.
  let countedContent: ToolMessage['content'] | undefined;
  const shortened: number[] = [];
  let excess = input.excess;
  for (let partIndex = 0; partIndex < input.oldParts && excess > 0; partIndex++) {
    const part = parts[partIndex]!;
    if (input.exempt.has(part.toolName)) continue;
    const size = sizes[partIndex]!;
    // A result an earlier round shortened is left alone unless it is still far over the cap (another
    // strategy kept a large part of it).
    const cap = isShortenedPart(part) ? options.maxResultTokens * 2 : options.maxResultTokens;
    // A placeholder naming a handle is longer than a plain one: a result no larger than it stays whole.
    if (size.tokens <= cap || (input.archive && size.tokens <= input.noteTokens)) continue;
    content ??= parts.slice();
    if (content === countedContent) content = content.slice();
    content[partIndex] = shortenFully(part, size, input);
    shortened.push(partIndex);
    excess -= size.tokens - (options.mode === 'mask' ? input.noteTokens : options.maxResultTokens);
    if (excess <= 0) {
      // The estimate says the target is met: the count decides whether it is.
      counted = input.count(content);
      countedContent = content;
      excess = counted.tokens - goal;
    }
  }
  if (content === undefined) return undefined;
  let current: ToolMessage['content'] = content;
  // Results shortened after the last count are in `content` only: count what is returned.
  if (counted === undefined || countedContent !== current) counted = input.count(current);
  let partial: number | undefined;
  while (shortened.length > 0 && counted.tokens < goal - input.slack) {
    // Too far below the target: the last result shortened gives some of its text back.
    const partIndex = shortened.pop()!;
    const part = parts[partIndex]!;
    const restored = current.slice();
    restored[partIndex] = part;
    const whole = input.count(restored);
    if (whole.tokens <= goal) {
      current = restored;
      counted = whole;
      continue;
    }
    // What the result counts, from the two counts rather than its share of the text (results sharing a
    // message need not count alike), and what of it the target leaves room for.
    const resultTokens = Math.max(1, whole.tokens - counted.tokens);
    const charactersPerToken = sizes[partIndex]!.characters / resultTokens;
    const fitted = fitToRoom(goal, goal - counted.tokens, (keepTokens) => {
      const candidate = restored.slice();
      candidate[partIndex] = shortenToolResultToTokens(
        part,
        keepTokens,
        charactersPerToken,
        strategyName,
        input.archive,
      );
      const result = input.count(candidate);
      return { value: { content: candidate, counted: result }, tokens: result.tokens };
    });
    if (fitted !== undefined) {
      current = fitted.value.content;
      counted = fitted.value.counted;
      partial = partIndex;
    } else {
      shortened.push(partIndex);
    }
    break;
  }
  const changed = shortened.length + (partial === undefined ? 0 : 1);
  if (changed === 0) return undefined;
  tally.shortenedResults += changed;
  // The calls of results cut only partly keep their inputs.
  for (const partIndex of shortened) tally.changedCalls?.add(parts[partIndex]!.toolCallId);
  return counted;
}

/** A result shortened as far as the mode goes: masked, or cut to about the cap. */
function shortenFully(
  part: ToolResultPart,
  size: ToolResultSize,
  { options, archive, noteTokens }: ShortenToolMessageInput,
): ToolResultPart {
  if (options.mode === 'mask') return maskResult(part, size.characters, archive);
  const keepTokens = options.maxResultTokens - noteTokens;
  return shortenToolResultToTokens(part, keepTokens, size.characters / size.tokens, strategyName, archive);
}

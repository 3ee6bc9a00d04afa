import {
  isPinned,
  type Message,
  type TokenCounter,
  type ToolMessage,
  withCompactionMetadata,
} from '@compaction/core';
import { fitToRoom } from './fit-to-room.js';
import type { Turn } from './group-turns.js';
import {
  shortenToolResultToTokens,
  type ToolResultSize,
  toolResultSizes,
  truncationNoteCost,
} from './tool-result-sizes.js';

/** The marks a shortened message carries. */
export interface ShortenMarks {
  /** The compaction round that shortens. */
  round: number;
  /** The strategy that shortens. */
  strategy: string;
  /** Whether the cut notes name the recall handles of the whole results (`input.archive`). */
  archive?: boolean;
}

interface ResultSize extends ToolResultSize {
  messageIndex: number;
  partIndex: number;
}

/**
 * Shortens the tool results of one turn so that the turn counts at most `room` tokens, as close under it as
 * the measurement allows; the calls, and so the pairing, stay as they are. Every result is cut to the same
 * token cap, so the largest give up the most, and each keeps its start and its end ({@link
 * shortenToolResult}; with `marks.archive`, each cut note names its recall handle). Pinned tool messages are
 * left alone. Returns undefined when the turn already fits,
 * has no results to shorten, or cannot fit even with its results cut to nothing.
 */
export function shortenTurn(
  messages: readonly Message[],
  turn: Turn,
  counter: TokenCounter,
  room: number,
  marks: ShortenMarks,
): Message[] | undefined {
  const sizes: ResultSize[] = [];
  let turnTokens = 0;
  for (let index = turn.start; index < turn.end; index++) {
    const message = messages[index]!;
    const messageTokens = counter.countMessage(message);
    turnTokens += messageTokens;
    if (message.role !== 'tool' || isPinned(message)) continue;
    toolResultSizes(message, messageTokens).forEach((size, partIndex) => {
      sizes.push({ ...size, messageIndex: index, partIndex });
    });
  }
  if (sizes.length === 0 || turnTokens <= room) return undefined;
  const resultTokens = sizes.reduce((sum, size) => sum + size.tokens, 0);
  const resultSizes = sizes.map((size) => size.tokens);
  const fitted = fitToRoom(
    room,
    room - (turnTokens - resultTokens) - truncationNoteCost(counter, marks.archive === true) * sizes.length,
    (available) => {
      const shortened = buildTurn(messages, turn, sizes, waterLevel(resultSizes, available), marks);
      return { value: shortened, tokens: counter.estimate(shortened) };
    },
  );
  return fitted?.value;
}

/** The cap `c` for which the sizes, each cut to `c`, add up to at most `available`. */
function waterLevel(sizes: readonly number[], available: number): number {
  const sorted = [...sizes].sort((left, right) => left - right);
  let remaining = available;
  for (let index = 0; index < sorted.length; index++) {
    const share = remaining / (sorted.length - index);
    if (sorted[index]! > share) return share;
    remaining -= sorted[index]!;
  }
  return Number.POSITIVE_INFINITY;
}

function buildTurn(
  messages: readonly Message[],
  turn: Turn,
  sizes: readonly ResultSize[],
  cap: number,
  marks: ShortenMarks,
): Message[] {
  const result = messages.slice(turn.start, turn.end);
  const byMessage = new Map<number, ResultSize[]>();
  for (const size of sizes) {
    if (size.tokens <= cap) continue;
    const list = byMessage.get(size.messageIndex) ?? [];
    list.push(size);
    byMessage.set(size.messageIndex, list);
  }
  for (const [messageIndex, shortenedSizes] of byMessage) {
    const message = messages[messageIndex] as ToolMessage;
    const content = [...message.content];
    for (const size of shortenedSizes) {
      content[size.partIndex] = shortenToolResultToTokens(
        content[size.partIndex]!,
        cap,
        size.characters / size.tokens,
        marks.strategy,
        marks.archive === true,
      );
    }
    result[messageIndex - turn.start] = withCompactionMetadata<ToolMessage>(
      message,
      { kind: 'modified', round: marks.round, strategy: marks.strategy },
      content,
    );
  }
  return result;
}

/** Least room, below the target, that a strategy may leave unused by removing a whole turn. */
const minimumSlack = 256;
/** Share of the target a strategy may leave unused by removing a whole turn. */
const slackShare = 0.05;

/**
 * How far below the target a strategy may end by removing a whole turn: the larger of 256 tokens and 5% of
 * the target. When removing the turn at its boundary (the last it removes, or the first it cannot keep)
 * would leave more room than this unused, the strategy shortens that turn's tool results to fill the room
 * instead ({@link fillRoomWithTurn}), so one huge result never takes everything around it along.
 */
export function wholeTurnSlack(target: number): number {
  return Math.max(minimumSlack, Math.floor(target * slackShare));
}

/**
 * The boundary rule every strategy that keeps or drops whole turns follows: the turn shortened to fill
 * `room` (see {@link shortenTurn}), or undefined when it should go whole, because dropping it leaves no more
 * than {@link wholeTurnSlack} of the target unused or because its results cannot be cut enough (its calls,
 * text and reasoning alone are over the room).
 */
export function fillRoomWithTurn(
  messages: readonly Message[],
  turn: Turn,
  counter: TokenCounter,
  budget: { room: number; target: number },
  marks: ShortenMarks,
): Message[] | undefined {
  if (budget.room <= wholeTurnSlack(budget.target)) return undefined;
  return shortenTurn(messages, turn, counter, budget.room, marks);
}

/** The context windows the background bench replays each transcript with, side by side in one run. */
import { type AnchoredTokenCounter, type Message, resolveBudget } from '@compaction/core';
import type { BackgroundTranscript } from './background-results.js';
import { budgetShares, replayBudget } from './replay.js';

/** What a window is sized from: a transcript's replayed history and the largest turn it adds at once. */
export interface TranscriptSizes {
  historyTokens: number;
  largestTurnTokens: number;
}

/** One way of sizing each transcript's window: a setting of record of the bench. */
export interface WindowSetting {
  name: string;
  /** How the window is sized, in words, for the README. */
  description: string;
  contextWindow(sizes: TranscriptSizes): number;
}

const thirdOfHistory = ({ historyTokens }: TranscriptSizes) => Math.ceil(historyTokens / 3);
const roundUpToThousand = (tokens: number) => Math.ceil(tokens / 1000) * 1000;

export const windowSettings: readonly WindowSetting[] = [
  {
    name: 'stress: a third of the history',
    description:
      'each window a third of the replayed history: a single tool result can be most of it, so one turn can ' +
      'carry the history from under `prepareAt` past the limit, where nothing can be sent before a compaction ends',
    contextWindow: thirdOfHistory,
  },
  {
    name: 'headroom holds the largest turn',
    description:
      'each window large enough that the room between the trigger and the limit (1 − trigger of the window) ' +
      'holds the largest turn the transcript adds between two model calls, rounded up to a thousand tokens, and ' +
      'at least a third of the history, as the window of a real agent (200k, 15% of it over the trigger) holds ' +
      'any single turn of these transcripts',
    contextWindow: (sizes) =>
      Math.max(
        thirdOfHistory(sizes),
        roundUpToThousand(Math.ceil(sizes.largestTurnTokens / (1 - budgetShares.trigger))),
      ),
  },
];

/**
 * A transcript's sizes: its replayed history, the largest turn it adds between two model calls (the growth of
 * the history from one `prepare` to the next, uncompacted), and the history the last `prepare` is given when
 * nothing was compacted before: the trigger fires in a window only if this is over its trigger.
 */
export function transcriptSizes(
  messages: readonly Message[],
  calls: readonly number[],
  counter: AnchoredTokenCounter,
): TranscriptSizes & { lastCallTokens: number } {
  const before = calls.map((index) => counter.count(messages.slice(0, index)));
  const growth = before.slice(1).map((tokens, turn) => tokens - before[turn]!);
  return {
    historyTokens: counter.count(messages),
    largestTurnTokens: Math.max(0, ...growth),
    lastCallTokens: before.at(-1) ?? 0,
  };
}

/** A transcript in a setting: its window, its trigger in tokens, and whether the trigger fires there at all. */
export function sizeTranscript(
  setting: WindowSetting,
  {
    name,
    calls,
    sizes,
  }: { name: string; calls: readonly number[]; sizes: ReturnType<typeof transcriptSizes> },
): { sized: BackgroundTranscript; triggerFires: boolean } {
  const contextWindow = setting.contextWindow(sizes);
  const triggerTokens = resolveBudget(replayBudget(contextWindow)).trigger ?? contextWindow;
  return {
    sized: { name, modelCalls: calls.length, ...sizes, contextWindow, triggerTokens },
    triggerFires: sizes.lastCallTokens > triggerTokens,
  };
}

import type { ResolvedSummarizationOptions } from './summarization-options.js';

/** What {@link allocateRoom} divides. */
export interface RoomInput {
  /**
   * Tokens left for the summary text, the trail and the recent turns: the target minus the verbatim head and
   * the summary message's fixed parts.
   */
  room: number;
  target: number;
  /** Tokens of the whole trail, unfolded: the most it can need. */
  trailNeeds: number;
  options: Pick<
    ResolvedSummarizationOptions,
    'trailShare' | 'summaryShare' | 'maxOutputTokens' | 'recentShare'
  >;
}

/** How the room is divided before the recent turns are chosen. */
export interface RoomAllocation {
  /** Reserved for the artifact trail. */
  trailTokens: number;
  /** The summarizer's output-token limit: what the trail leaves, within `summaryShare`, `maxOutputTokens`. */
  summaryTokens: number;
  /**
   * What recent turns may take by preference (`recentShare` of the target); they never get more than the room
   * the other two leave.
   */
  recentTokens: number;
}

/**
 * Divides the room, trail first: it is the part of the summary no model can get wrong, and at small targets
 * the only part that fits. The trail may take what it needs up to the larger of `trailShare` of the target
 * and what the room holds beyond the summary text's and the recent turns' own shares (so when the room is
 * smaller than those shares together, the trail still gets its `trailShare`, or all the room if that is
 * less). The summary text gets what the trail leaves, up to its share and `maxOutputTokens`, and the recent
 * turns (the `minimumRecentTurns` included) only what the two leave.
 */
export function allocateRoom(input: RoomInput): RoomAllocation {
  const { room, target, options } = input;
  const summaryCap = Math.min(options.maxOutputTokens, Math.floor(options.summaryShare * target));
  const recentTokens = Math.floor(options.recentShare * target);
  const trailCap = Math.max(Math.floor(options.trailShare * target), room - summaryCap - recentTokens);
  const trailTokens = Math.max(0, Math.min(input.trailNeeds, trailCap, room));
  const summaryTokens = Math.max(0, Math.min(summaryCap, room - trailTokens));
  return { trailTokens, summaryTokens, recentTokens };
}

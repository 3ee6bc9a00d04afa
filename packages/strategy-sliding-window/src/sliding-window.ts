import {
  type CompactionOutput,
  type CompactionStrategy,
  type Message,
  type TokenCounter,
  validateOptions,
} from '@compaction/core';
import {
  countTurn,
  createWholeTurnsStrategy,
  fillRoomWithTurn,
  keepChosenTurns,
  nothingRemovedOutput,
  protectedOverLimit,
  shortenTurn,
  type TurnChoice,
  type TurnPlan,
} from '@compaction/strategy-kit';
import { markerText } from './marker-text.js';
import { type SlidingWindowOptions, slidingWindowOptionsSchema } from './sliding-window-options.js';

const strategyName = 'sliding-window';

/**
 * Creates the `sliding-window` strategy: keeps the head (system prompt, the opening with the task, pinned messages,
 * newest user request, a last turn still waiting for tool results) and the newest turns that fit a token
 * window, with a marker for what was skipped. The first turn that does not fit is kept with its tool results
 * shortened to fill the room when that room is more than `wholeTurnSlack` (always for the newest turn), so a
 * huge result never empties the window.
 * Options are validated here, so direct use is checked like a config. Throws `InvalidOptionsError` for bad
 * options.
 */
export function createSlidingWindow(options: SlidingWindowOptions = {}): CompactionStrategy {
  const validated = validateOptions<SlidingWindowOptions & { marker: boolean }>(
    slidingWindowOptionsSchema,
    options,
    `strategy "${strategyName}"`,
  );
  const { marker } = validated;
  const windowTokens = validated.windowTokens ?? Number.POSITIVE_INFINITY;
  const settings = { strategy: strategyName, markers: marker, markerText };
  return createWholeTurnsStrategy(
    settings,
    ({ messages, counter, budget, round, archive = false }, start) => {
      const window: WindowInput = {
        messages,
        counter,
        budget,
        marks: { round, strategy: strategyName, archive },
        markerCost: start.markerCost,
        windowTokens,
      };
      return keepChosenTurns({ messages, counter, budget }, start, (plan) => selectWindow(window, plan));
    },
  );
}

/** What choosing the window reads: the compaction's input, the marks of shortened results, the window's size. */
interface WindowInput {
  messages: readonly Message[];
  counter: TokenCounter;
  budget: { target: number; limit: number };
  marks: { round: number; strategy: string; archive: boolean };
  markerCost: number;
  windowTokens: number;
}

/** The turns kept: the protected ones and the window of newest turns (the oldest of them perhaps shortened). */
function selectWindow(window: WindowInput, plan: TurnPlan): TurnChoice | CompactionOutput {
  const { messages, counter, budget } = window;
  const { windowStart, replacements } = walkWindow(window, plan, runningSums(plan));
  if (windowStart === 0 && replacements.size === 0) {
    // Everything fits, or everything is protected: nothing to remove, but the limit still holds.
    const tokens = counter.estimate(messages);
    if (tokens > budget.limit) throw protectedOverLimit(budget, tokens);
    return nothingRemovedOutput(messages);
  }
  const turnCount = plan.turns.length;
  const kept = new Uint8Array(turnCount);
  for (let turnIndex = 0; turnIndex < turnCount; turnIndex++) {
    if (turnIndex >= windowStart || plan.protectedTurns[turnIndex] === 1) kept[turnIndex] = 1;
  }
  return { kept, replacements };
}

/**
 * Running sums from the front: tokens of protected turns, and runs of other turns (each run removed becomes
 * one marker) before each turn. They say what lies outside the window wherever it starts, in constant time.
 */
function runningSums(plan: TurnPlan): { protectedBefore: Float64Array; runsBefore: Uint32Array } {
  const turnCount = plan.turns.length;
  const protectedBefore = new Float64Array(turnCount + 1);
  const runsBefore = new Uint32Array(turnCount + 1);
  for (let turnIndex = 0; turnIndex < turnCount; turnIndex++) {
    const isProtected = plan.protectedTurns[turnIndex] === 1;
    protectedBefore[turnIndex + 1] =
      protectedBefore[turnIndex]! + (isProtected ? plan.tokens[turnIndex]! : 0);
    const opensRun = !isProtected && (turnIndex === 0 || plan.protectedTurns[turnIndex - 1] === 1);
    runsBefore[turnIndex + 1] = runsBefore[turnIndex]! + (opensRun ? 1 : 0);
  }
  return { protectedBefore, runsBefore };
}

/**
 * Walks from the newest turn back, keeping turns while they fit; older turns are never counted. Returns where
 * the window starts (0 when everything fits) and the turn kept shortened, if one is.
 */
function walkWindow(
  window: WindowInput,
  plan: TurnPlan,
  { protectedBefore, runsBefore }: ReturnType<typeof runningSums>,
): { windowStart: number; replacements: Map<number, Message[]> } {
  const { messages, counter, budget, markerCost, windowTokens } = window;
  const turnCount = plan.turns.length;
  const replacements = new Map<number, Message[]>();
  let windowStart = turnCount;
  let fromWindowStart = 0;
  let inWindow = 0;
  for (let turnIndex = turnCount - 1; turnIndex >= 0; turnIndex--) {
    const turn = plan.turns[turnIndex]!;
    if (plan.protectedTurns[turnIndex] === 1) {
      fromWindowStart += plan.tokens[turnIndex]!;
      windowStart = turnIndex;
      continue;
    }
    const turnTokens = countTurn(messages, turn, counter);
    const outside = protectedBefore[turnIndex]! + runsBefore[turnIndex]! * markerCost;
    if (outside + fromWindowStart + turnTokens <= budget.target && inWindow + turnTokens <= windowTokens) {
      fromWindowStart += turnTokens;
      inWindow += turnTokens;
      windowStart = turnIndex;
      continue;
    }
    if (
      outside - runsBefore[turnIndex]! * markerCost + fromWindowStart + turnTokens <= budget.target &&
      inWindow + turnTokens <= windowTokens &&
      fitsWhole(
        messages,
        plan,
        counter,
        turnIndex,
        protectedBefore[turnIndex]! + fromWindowStart,
        inWindow,
        budget,
        windowTokens,
      )
    ) {
      windowStart = 0;
      break;
    }
    // The first turn that does not fit: rather than end the window far below the target (one huge tool
    // result would take everything older with it), keep it with its results shortened to fill the room.
    // The newest turn is kept so whenever it fits at all; an older one when the room is worth it.
    const room = Math.min(budget.target - outside - fromWindowStart, windowTokens - inWindow);
    const shortened =
      inWindow === 0
        ? shortenTurn(messages, turn, counter, room, window.marks)
        : fillRoomWithTurn(
            messages,
            turn,
            counter,
            { room, target: Math.min(budget.target, windowTokens) },
            window.marks,
          );
    if (shortened !== undefined) {
      replacements.set(turnIndex, shortened);
      windowStart = turnIndex;
    }
    break;
  }
  return { windowStart, replacements };
}

/**
 * Whether the whole history fits after all: the walk stops at the first turn that does not fit with room
 * left for markers, but with nothing removed there is no marker. Counts the older turns only when the turn
 * missed by no more than the marker allowance.
 */
function fitsWhole(
  messages: readonly Message[],
  plan: TurnPlan,
  counter: TokenCounter,
  turnIndex: number,
  keptTokens: number,
  inWindow: number,
  budget: { target: number },
  windowTokens: number,
): boolean {
  let tokens = keptTokens;
  let window = inWindow;
  for (let index = turnIndex; index >= 0; index--) {
    if (plan.protectedTurns[index] === 1) continue;
    const turnTokens = countTurn(messages, plan.turns[index]!, counter);
    tokens += turnTokens;
    window += turnTokens;
    if (tokens > budget.target || window > windowTokens) return false;
  }
  return true;
}

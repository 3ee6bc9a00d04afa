import {
  firstUserMessageIndex,
  groupTurns,
  isPinned,
  latestUserMessageIndex,
  type Message,
  type TokenCounter,
  type Turn,
} from '@compaction/core';

/** A history seen as turns, each with its token count and whether it must be kept. */
export interface TurnPlan {
  turns: Turn[];
  /**
   * Tokens of each protected turn, summed once from the counter's memoized per-message counts. Other turns
   * are counted only when the window reaches them (see {@link countTurn}), so a cold counter never
   * estimates turns that are skipped anyway.
   */
  tokens: Float64Array;
  /** 1 for turns holding a system, pinned, original-task or newest-user message. */
  protectedTurns: Uint8Array;
  /** Index of the turn holding the original task (the first user message), or -1. */
  taskTurn: number;
  /** Whether the first non-system message is a user message; the result must then start the same way. */
  startsWithUser: boolean;
}

/**
 * Groups a history into turns and measures the protected ones, which are never dropped: system messages,
 * pinned messages, the newest user request and, when `keepOriginalTask` is set, the first user message.
 */
export function planTurns(
  messages: readonly Message[],
  counter: TokenCounter,
  keepOriginalTask: boolean,
): TurnPlan {
  const turns = groupTurns(messages);
  const tokens = new Float64Array(turns.length);
  const protectedTurns = new Uint8Array(turns.length);
  const task = firstUserMessageIndex(messages);
  const latest = latestUserMessageIndex(messages);
  let taskTurn = -1;
  turns.forEach((turn, turnIndex) => {
    let isProtected = false;
    for (let index = turn.start; index < turn.end; index++) {
      const message = messages[index]!;
      if (index === task) taskTurn = turnIndex;
      if (
        message.role === 'system' ||
        index === latest ||
        (keepOriginalTask && index === task) ||
        isPinned(message)
      ) {
        isProtected = true;
      }
    }
    if (isProtected) {
      protectedTurns[turnIndex] = 1;
      tokens[turnIndex] = countTurn(messages, turn, counter);
    }
  });
  const firstConversational = messages.find((message) => message.role !== 'system');
  return {
    turns,
    tokens,
    protectedTurns,
    taskTurn,
    startsWithUser: firstConversational?.role === 'user',
  };
}

/** Index of the first kept turn from `from` on that is not a system message, or -1. */
export function firstKeptConversationalTurn(
  messages: readonly Message[],
  plan: TurnPlan,
  kept: Uint8Array,
  from = 0,
): number {
  for (let turnIndex = from; turnIndex < plan.turns.length; turnIndex++) {
    if (kept[turnIndex] === 1 && messages[plan.turns[turnIndex]!.start]!.role !== 'system') return turnIndex;
  }
  return -1;
}

/** Tokens of one turn, from the counter's memoized per-message counts. */
export function countTurn(messages: readonly Message[], turn: Turn, counter: TokenCounter): number {
  let sum = 0;
  for (let index = turn.start; index < turn.end; index++) sum += counter.countMessage(messages[index]!);
  return sum;
}

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
  /** Tokens of each turn, summed once from the counter's memoized per-message counts. */
  tokens: Float64Array;
  /** 1 for turns holding a system, pinned, original-task or newest-user message. */
  protectedTurns: Uint8Array;
  /** Tokens of the whole history. */
  total: number;
  /** Index of the turn holding the original task (the first user message), or -1. */
  taskTurn: number;
  /** Whether the first non-system message is a user message; the result must then start the same way. */
  startsWithUser: boolean;
}

/**
 * Groups a history into turns and measures them in one pass. Protected turns are never dropped: system
 * messages, pinned messages, the newest user request and, when `keepOriginalTask` is set, the first user message.
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
  let total = 0;
  let taskTurn = -1;
  turns.forEach((turn, turnIndex) => {
    let sum = 0;
    let isProtected = false;
    for (let index = turn.start; index < turn.end; index++) {
      const message = messages[index]!;
      sum += counter.countMessage(message);
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
    tokens[turnIndex] = sum;
    if (isProtected) protectedTurns[turnIndex] = 1;
    total += sum;
  });
  const firstConversational = messages.find((message) => message.role !== 'system');
  return {
    turns,
    tokens,
    protectedTurns,
    total,
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

import {
  isPinned,
  latestUserMessageIndex,
  type Message,
  openingIndexes,
  type TokenCounter,
  toolCallsOf,
} from '@compaction/core';
import { firstUserMessageIndex } from './first-user-message-index.js';
import { groupTurns, type Turn } from './group-turns.js';

/**
 * A history seen as turns, for strategies that keep or drop whole turns: which turns must be kept and what
 * they cost.
 */
export interface TurnPlan {
  turns: Turn[];
  /**
   * Tokens of each protected turn, from the counter's memoized per-message counts; 0 for the others, which a
   * strategy counts with {@link countTurn} only when it reaches them, so a cold counter never estimates turns
   * that are dropped anyway.
   */
  tokens: Float64Array;
  /**
   * 1 for turns holding a system, pinned, opening (`openingIndexes`), first-user or newest-user message, and
   * for a last turn whose tool calls still wait for their results (the results will be appended after it).
   */
  protectedTurns: Uint8Array;
  /** Index of the turn holding the original task (the first user message), or -1. */
  taskTurn: number;
  /** Whether the first non-system message is a user message; the result must then start the same way. */
  startsWithUser: boolean;
}

/**
 * Groups a history into turns and measures the protected ones, which are never dropped: system messages,
 * pinned messages, the opening (everything the client sent before the first model message, see core's
 * `openingIndexes`: the task, whole), the first user request (the task of a history that no longer opens
 * with it), the newest user request and a last turn whose calls still wait for results. Every strategy that decides what to keep starts from this plan, so all share one idea of a turn
 * and of the task.
 */
export function planTurns(messages: readonly Message[], counter: TokenCounter): TurnPlan {
  const turns = groupTurns(messages);
  const tokens = new Float64Array(turns.length);
  const protectedTurns = new Uint8Array(turns.length);
  const task = firstUserMessageIndex(messages);
  const latest = latestUserMessageIndex(messages);
  const opening = new Set(openingIndexes(messages));
  let taskTurn = -1;
  turns.forEach((turn, turnIndex) => {
    let isProtected = false;
    for (let index = turn.start; index < turn.end; index++) {
      const message = messages[index]!;
      if (index === task) taskTurn = turnIndex;
      const request = index === task || index === latest || opening.has(index);
      if (message.role === 'system' || request || isPinned(message)) {
        isProtected = true;
      }
    }
    if (turnIndex === turns.length - 1 && awaitsResults(messages, turn)) isProtected = true;
    if (isProtected) {
      protectedTurns[turnIndex] = 1;
      tokens[turnIndex] = countTurn(messages, turn, counter);
    }
  });
  const firstConversational = messages.find((message) => message.role !== 'system');
  return { turns, tokens, protectedTurns, taskTurn, startsWithUser: firstConversational?.role === 'user' };
}

/** Whether a turn's tool calls are not all answered inside it (possible only for the last turn). */
function awaitsResults(messages: readonly Message[], turn: Turn): boolean {
  const answered = new Set<string>();
  for (let index = turn.start; index < turn.end; index++) {
    const message = messages[index]!;
    if (message.role === 'tool') for (const part of message.content) answered.add(part.toolCallId);
  }
  for (let index = turn.start; index < turn.end; index++) {
    for (const call of toolCallsOf(messages[index]!)) if (!answered.has(call.toolCallId)) return true;
  }
  return false;
}

/** Tokens of one turn, from the counter's memoized per-message counts. */
export function countTurn(messages: readonly Message[], turn: Turn, counter: TokenCounter): number {
  let sum = 0;
  for (let index = turn.start; index < turn.end; index++) sum += counter.countMessage(messages[index]!);
  return sum;
}

/** Index of the first kept turn (`kept[turn] === 1`) from `from` on that is not a system message, or -1. */
function firstKeptConversationalTurn(
  messages: readonly Message[],
  plan: TurnPlan,
  kept: Readonly<Uint8Array>,
  from = 0,
): number {
  for (let turnIndex = from; turnIndex < plan.turns.length; turnIndex++) {
    if (kept[turnIndex] === 1 && messages[plan.turns[turnIndex]!.start]!.role !== 'system') return turnIndex;
  }
  return -1;
}

/**
 * When the history starts with a user turn, the result must too (providers reject a conversation that opens
 * with the model). Returns the kept turns without the oldest that are neither user messages nor protected,
 * up to (not including) turn `dropBefore`; if a protected message that is not a user message still stands
 * first, the original task is kept after all. `kept` itself is left as it is.
 */
export function keepUserTurnFirst(
  messages: readonly Message[],
  plan: TurnPlan,
  kept: Readonly<Uint8Array>,
  dropBefore: number = plan.turns.length,
): Uint8Array {
  const result = kept.slice();
  if (!plan.startsWithUser) return result;
  const isUserTurn = (turnIndex: number) => messages[plan.turns[turnIndex]!.start]!.role === 'user';
  let first = firstKeptConversationalTurn(messages, plan, result);
  while (first !== -1 && !isUserTurn(first) && first < dropBefore && plan.protectedTurns[first] === 0) {
    result[first] = 0;
    first = firstKeptConversationalTurn(messages, plan, result, first + 1);
  }
  if (first !== -1 && !isUserTurn(first) && plan.taskTurn !== -1) result[plan.taskTurn] = 1;
  return result;
}

import {
  groupTurns,
  isPinned,
  isSummary,
  latestUserMessageIndex,
  type Message,
  type TokenCounter,
  type Turn,
  toolCallsOf,
} from '@compaction/core';

/** How a history splits before summarizing. */
export interface HistoryLayout {
  /** Index of the original task: the first user message that is not a summary (-1 when none). */
  taskIndex: number;
  /** Index of the newest user request (-1 when none). */
  latestIndex: number;
  /** Turns kept whatever happens: they hold a system, pinned, task or newest-request message. */
  anchored: Turn[];
  /** Earlier summaries, merged into the new one. */
  summaries: Turn[];
  /** All other turns, oldest first: each either stays as a recent turn or is summarized. */
  candidates: Turn[];
}

/**
 * Splits a history into turns kept verbatim (system prompt, pinned messages, the original task and the
 * newest user request, each with the rest of its turn), earlier summaries (found by metadata) and the
 * turns that may be summarized. Turns come from `groupTurns`, so a tool call and its results always stay
 * together.
 */
export function layoutHistory(messages: readonly Message[]): HistoryLayout {
  const taskIndex = messages.findIndex((message) => message.role === 'user' && !isSummary(message));
  // The newest user message is kept verbatim by rule, even if it is an earlier summary.
  const latestIndex = latestUserMessageIndex(messages);
  const isAnchor = (message: Message, index: number) =>
    message.role === 'system' || isPinned(message) || index === taskIndex || index === latestIndex;
  const layout: HistoryLayout = { taskIndex, latestIndex, anchored: [], summaries: [], candidates: [] };
  const turns = groupTurns(messages);
  turns.forEach((turn, turnIndex) => {
    const turnMessages = messages.slice(turn.start, turn.end);
    // A last turn whose calls still wait for results stays: the results will be appended after it.
    const waiting = turnIndex === turns.length - 1 && hasUnansweredCalls(turnMessages);
    if (waiting || turnMessages.some((message, offset) => isAnchor(message, turn.start + offset))) {
      layout.anchored.push(turn);
    } else if (turnMessages.length === 1 && isSummary(turnMessages[0]!)) {
      layout.summaries.push(turn);
    } else {
      layout.candidates.push(turn);
    }
  });
  return layout;
}

function hasUnansweredCalls(turnMessages: readonly Message[]): boolean {
  const answered = new Set<string>();
  for (const message of turnMessages) {
    if (message.role === 'tool') for (const part of message.content) answered.add(part.toolCallId);
  }
  return toolCallsOf(turnMessages[0]!).some((call) => !answered.has(call.toolCallId));
}

/** What {@link selectRecentTurns} weighs. */
export interface RecentTurnsInput {
  messages: readonly Message[];
  counter: TokenCounter;
  candidates: readonly Turn[];
  /** Tokens recent turns may take by preference (`recentShare` of the target). */
  preferred: number;
  /** Tokens recent turns may never exceed (what the target leaves after the head and the summary). */
  available: number;
  minimumTurns: number;
}

/**
 * How many of the newest candidate turns stay verbatim: as many as fit the preferred share, at least
 * `minimumTurns`, and never more than the target leaves. Returns the index of the first kept candidate.
 */
export function selectRecentTurns(input: RecentTurnsInput): { firstKept: number; tokens: number } {
  let tokens = 0;
  let firstKept = input.candidates.length;
  for (let index = input.candidates.length - 1; index >= 0; index--) {
    const turn = input.candidates[index]!;
    const turnTokens = input.counter.estimate(input.messages.slice(turn.start, turn.end));
    const kept = input.candidates.length - index - 1;
    if (tokens + turnTokens > input.available) break;
    if (tokens + turnTokens > input.preferred && kept >= input.minimumTurns) break;
    tokens += turnTokens;
    firstKept = index;
  }
  return { firstKept, tokens };
}

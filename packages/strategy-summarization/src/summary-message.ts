import {
  type JSONObject,
  type Message,
  mergesAheadOfReasoning,
  withCompactionMetadata,
} from '@compaction/core';
import type { ArtifactTrail } from './artifact-trail.js';
import type { SummaryPlacement } from './summarization-options.js';

/** The strategy's registered name, recorded on every summary it writes. */
export const strategyName = 'summarization';

/** What a summary message carries. */
export interface SummaryMessageInput {
  role: 'user' | 'assistant';
  /** The whole text: header, summary body and rendered trail. */
  text: string;
  round: number;
  /** The body alone, merged into the next round's summary. */
  summaryText: string;
  artifactTrail: ArtifactTrail;
  summarizedMessages: number;
  fallback?: 'extractive';
}

/**
 * Builds the summary message, marked `kind: 'summary'` with its round; its metadata carries the body and
 * the artifact trail, so the next round merges them without parsing any text.
 */
export function summaryMessage(input: SummaryMessageInput): Message {
  const marks: JSONObject = {
    kind: 'summary',
    round: input.round,
    strategy: strategyName,
    summaryText: input.summaryText,
    artifactTrail: input.artifactTrail,
    summarizedMessages: input.summarizedMessages,
    ...(input.fallback === undefined ? {} : { fallback: input.fallback }),
  };
  return withCompactionMetadata({ role: input.role, content: [{ type: 'text', text: input.text }] }, marks);
}

/** Where a summary stands: before the original task, or after it (where the summarized span began). */
export type SummaryPosition = 'before-task' | 'after-task';

/**
 * The first line of a summary, saying what it is and where the verbatim messages are; with `recall` (the hint
 * of the archived span), where the summarized messages themselves are. Kept short: at small targets it
 * competes with the artifact trail for the same few tokens.
 */
export function summaryHeader(
  position: SummaryPosition,
  round: number,
  summarized: number,
  recall?: string,
): string {
  const where =
    position === 'before-task'
      ? 'the task and the latest messages follow verbatim'
      : 'the task is above, the latest messages follow verbatim';
  const archived = recall === undefined ? '' : `; ${recall} for the summarized messages word for word`;
  return `[Summary of ${summarized} earlier messages, compaction round ${round}; ${where}${archived}.]`;
}

/** Where the summary went, and as what. */
export interface Placed {
  messages: Message[];
  summary: Message;
  role: 'user' | 'assistant';
}

/**
 * Puts the summary among the kept messages (in their original order). `user-before-task` puts a user message
 * right before the original task (after the system prompt and anything pinned before it).
 * `assistant-after-task` puts an assistant message where the summarized span began. When an assistant
 * message with reasoning would follow it (providers would merge the two into one turn with the summary ahead
 * of the thinking block, which they refuse), the summary goes there as a user message instead, so the
 * messages before it, the task among them, still open the conversation unchanged (and stay in the prompt
 * cache). When nothing would follow it, or the history would no longer start with a user turn, it is placed
 * as `user-before-task`.
 */
export function placeSummary(
  placement: SummaryPlacement,
  kept: ReadonlyArray<{ index: number; message: Message }>,
  makeSummary: (role: 'user' | 'assistant', position: SummaryPosition) => Message,
  positions: { taskIndex: number; spanStart: number; startsWithUser: boolean },
): Placed {
  if (placement === 'assistant-after-task') {
    const at = kept.findIndex((item) => item.index > positions.spanStart);
    const before = kept.slice(0, at === -1 ? kept.length : at).map((item) => item.message);
    const firstConversational = before.find((message) => message.role !== 'system');
    const keepsUserFirst = !positions.startsWithUser || firstConversational?.role === 'user';
    if (at !== -1 && keepsUserFirst) {
      const after = kept.slice(at).map((item) => item.message);
      const summary = makeSummary('assistant', 'after-task');
      if (!mergesAheadOfReasoning(summary, after[0])) {
        return { messages: [...before, summary, ...after], summary, role: 'assistant' };
      }
      const userSummary = makeSummary('user', 'after-task');
      return { messages: [...before, userSummary, ...after], summary: userSummary, role: 'user' };
    }
  }
  let at = kept.findIndex((item) => item.index === positions.taskIndex);
  if (at === -1) at = kept.findIndex((item) => item.message.role !== 'system');
  if (at === -1) at = kept.length;
  const messages = kept.map((item) => item.message);
  const summary = makeSummary('user', 'before-task');
  return { messages: [...messages.slice(0, at), summary, ...messages.slice(at)], summary, role: 'user' };
}

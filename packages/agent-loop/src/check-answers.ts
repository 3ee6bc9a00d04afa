import { InvalidMessagesError } from '@compaction/core';
import type { ConversationVocabulary, ItemAnswers } from './conversation-adapter.js';

/**
 * Checks that items appended to a conversation answer its pending tool calls the way every API requires:
 * each result answers a pending call, once; and items that close the turn (a user message) leave no call
 * unanswered. Throws `InvalidMessagesError` otherwise, before anything is appended or sent.
 */
export function checkAnswers(
  pendingCallIds: readonly string[],
  answers: ItemAnswers,
  vocabulary: ConversationVocabulary,
): void {
  const { call, result, callsPath, answerPath } = vocabulary;
  const unanswered = new Set(pendingCallIds);
  const issues = answers.callIds.flatMap((id, index) =>
    unanswered.delete(id) ? [] : [{ index, path: answerPath, message: `${id} answers no pending ${call}` }],
  );
  if (answers.closesTurn) {
    for (const id of unanswered) {
      issues.push({ index: -1, path: callsPath, message: `${call} ${id} has no ${result}; add one first` });
    }
  }
  if (issues.length > 0) throw new InvalidMessagesError({ issues });
}

import {
  type CompactedRequestReading,
  isCompactionNote,
  keptRuleViolations,
  type LocatedKey,
  openingBeforeAssistant,
} from './compacted-rule-helpers.js';
import type { ContractViolation } from './contract-violation.js';
import { isJSONRecord, type JSONRecord } from './json-record.js';

const chatReading: CompactedRequestReading = {
  entries: (request) => request.messages as JSONRecord[],
  listField: 'messages',
  isSystemMessage: (message) => message.role === 'system' || message.role === 'developer',
  systemMessageName: 'system or developer message',
  settings: ['model', 'tools', 'tool_choice', 'functions', 'reasoning_effort'],
  openingLength: openingBeforeAssistant,
  // Each user message as one part: its whole message, so its name and content both count. A note or summary
  // of an earlier compaction, which stands in a user message of its own, is no request.
  userRequests: (messages) =>
    messages
      .filter((message) => message.role === 'user' && !isNoteMessage(message))
      .map((message) => [message]),
  idKeys: callKeys,
};

/** The rules between a Chat Completions request and its compaction (both of a readable shape). */
export function compactedOpenAIChatViolations(
  original: JSONRecord,
  compacted: JSONRecord,
): ContractViolation[] {
  return keptRuleViolations(chatReading, original, compacted);
}

/** `tool_call:id` for every call and `tool:id` for every tool message, with their paths. */
function callKeys(messages: readonly JSONRecord[]): LocatedKey[] {
  return messages.flatMap((message, index) => {
    if (message.role === 'tool')
      return [{ key: `tool:${String(message.tool_call_id)}`, path: `messages[${index}]` }];
    if (message.role !== 'assistant' || !Array.isArray(message.tool_calls)) return [];
    return message.tool_calls.filter(isJSONRecord).map((call, callIndex) => ({
      key: `tool_call:${String(call.id)}`,
      path: `messages[${index}].tool_calls[${callIndex}]`,
    }));
  });
}

/** Whether a user message holds nothing but a compaction's note or summary, as a string or one text part. */
function isNoteMessage(message: JSONRecord): boolean {
  const content = message.content;
  if (typeof content === 'string') return isCompactionNote(content);
  if (!Array.isArray(content) || content.length !== 1) return false;
  const part = content[0];
  return isJSONRecord(part) && part.type === 'text' && isCompactionNote(part.text);
}

import {
  newestUserRequestKept,
  nothingInvented,
  settingsKept,
  systemMessagesKept,
} from './compacted-rule-helpers.js';
import type { ContractViolation } from './contract-violation.js';
import { isJSONRecord, type JSONRecord } from './json-record.js';

/** The rules between a Chat Completions request and its compaction (both of a readable shape). */
export function compactedOpenAIChatViolations(
  original: JSONRecord,
  compacted: JSONRecord,
): ContractViolation[] {
  const violations: ContractViolation[] = [];
  const originalMessages = original.messages as JSONRecord[];
  const compactedMessages = compacted.messages as JSONRecord[];
  const instructions = (messages: JSONRecord[]) =>
    messages.filter((message) => message.role === 'system' || message.role === 'developer');
  systemMessagesKept(
    instructions(originalMessages),
    instructions(compactedMessages),
    'system or developer message',
    violations,
  );
  settingsKept(
    original,
    compacted,
    ['model', 'tools', 'tool_choice', 'functions', 'reasoning_effort'],
    violations,
  );
  // Each user message as one part: its whole message, so its name and content both count.
  const userRequests = (messages: JSONRecord[]) =>
    messages.filter((message) => message.role === 'user').map((message) => [message]);
  newestUserRequestKept(
    userRequests(originalMessages),
    userRequests(compactedMessages),
    'messages',
    violations,
  );
  nothingInvented(
    new Set(callKeys(originalMessages).map(({ key }) => key)),
    callKeys(compactedMessages),
    violations,
  );
  return violations;
}

/** `tool_call:id` for every call and `tool:id` for every tool message, with their paths. */
function callKeys(messages: readonly JSONRecord[]): Array<{ key: string; path: string }> {
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

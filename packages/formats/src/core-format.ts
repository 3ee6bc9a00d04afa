import { findMessageIssues, type Message } from '@compaction/core';
import { type ConversationFormat, isRecord } from './conversation-format.js';
import { inputError } from './format-error.js';

/** Core JSON: a list of core messages, or an object with a `messages` list (other keys are kept). */
export const coreFormat: ConversationFormat = {
  name: 'core',
  read(input) {
    const envelope = isRecord(input) ? input : undefined;
    const messages = envelope === undefined ? input : envelope.messages;
    const issues = findMessageIssues(messages);
    if (issues.length > 0) {
      const issue = issues[0]!;
      const where =
        issue.index < 0 ? 'messages' : `messages[${issue.index}]${issue.path ? `.${issue.path}` : ''}`;
      const more = issues.length > 1 ? ` (and ${issues.length - 1} more problems)` : '';
      throw inputError(`not a valid core conversation: ${where}: ${issue.message}${more}`);
    }
    if (envelope === undefined) return { format: 'core', messages: messages as Message[], list: true };
    const { messages: _messages, ...rest } = envelope;
    return { format: 'core', messages: messages as Message[], envelope: rest };
  },
  write(messages, input) {
    const envelope = input?.envelope;
    const value = envelope === undefined ? messages : { ...envelope, messages };
    return `${JSON.stringify(value, null, 2)}\n`;
  },
};

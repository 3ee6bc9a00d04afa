import { CompactionError } from './compaction-error.js';

/** One problem found in a message list. */
export interface MessageIssue {
  /** Index of the offending message, or -1 when the list itself is wrong. */
  index: number;
  /** Path inside the message, such as `content[2].input`. */
  path: string;
  message: string;
}

/** A message list is malformed in a way that cannot be repaired. */
export class InvalidMessagesError extends CompactionError {
  static override readonly marker: string = 'compaction.error.invalid-messages';
  override readonly name: string = 'InvalidMessagesError';
  readonly issues: MessageIssue[];
  constructor({ issues, cause }: { issues: MessageIssue[]; cause?: unknown }) {
    const shown = issues.slice(0, 5).map(({ index, path, message }) => {
      return `messages[${index}]${path ? `.${path}` : ''}: ${message}`;
    });
    const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : '';
    super({ code: 'core/invalid-messages', message: `Invalid messages: ${shown.join('; ')}${more}`, cause });
    this.issues = issues;
  }
}

import { CompactionError } from './compaction-error.js';

const marker = 'compaction.error.invalid-messages';
const symbol = Symbol.for(marker);

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
  private readonly [symbol] = true;
  readonly issues: MessageIssue[];

  constructor({ issues, cause }: { issues: MessageIssue[]; cause?: unknown }) {
    const shown = issues
      .slice(0, 5)
      .map((issue) => `messages[${issue.index}]${issue.path ? `.${issue.path}` : ''}: ${issue.message}`);
    const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : '';
    super({ code: 'invalid-messages', message: `Invalid messages: ${shown.join('; ')}${more}`, cause });
    this.name = 'InvalidMessagesError';
    this.issues = issues;
  }

  static override isInstance(error: unknown): error is InvalidMessagesError {
    return CompactionError.hasMarker(error, marker);
  }
}

import type { Message } from '../messages/message.js';

/** One change `repairHistory` made to a history. */
export interface Repair {
  kind:
    | 'placeholder-result'
    | 'moved-result'
    | 'removed-orphaned-result'
    | 'removed-duplicate-result'
    | 'renamed-duplicate-call';
  toolCallId: string;
  /** Index, in the input, of the message the change concerns. */
  index: number;
}

/** What `repairHistory` does with damage it finds. */
export interface RepairOptions {
  /** A tool result whose call is nowhere in the history: `remove` drops it (default), `error` throws. */
  orphanedResults?: 'remove' | 'error';
  /**
   * A tool call with no result before the next non-tool message: `placeholder` inserts an error result
   * (default), `error` throws. Calls in the last turn are left alone: their tools may still be running.
   */
  missingResults?: 'placeholder' | 'error';
}

/** The repaired history and what was changed. */
export interface RepairResult {
  messages: Message[];
  repairs: Repair[];
}

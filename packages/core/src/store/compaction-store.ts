import type { CompactionEvent } from '../compactor/compaction-event.js';
import type { Message } from '../messages/message.js';

/** A compaction event with the messages it removed, so no history is ever lost. */
export interface CompactionRecord {
  event: CompactionEvent;
  /** Messages of the input that are not in the result, in their original order. */
  removedMessages: Message[];
}

/** Where the Compactor records compactions. */
export interface CompactionStore {
  /** Appends a record to its session. */
  append(record: CompactionRecord): Promise<void>;
  /** The records of a session, oldest first. */
  list(sessionId: string): Promise<CompactionRecord[]>;
}

import type { ConversationShape, ServedFormat } from '../serve/request-conversation.js';
import type { CarriedError } from './strategy-task.js';

/**
 * One session answer's conversation for a compaction thread to write: the history in, the conversation in
 * its format out, as the bytes of its JSON. Converting and serializing a large history is what holds the
 * event loop longest in an answer that carries it; the history goes as JSON bytes, moved rather than copied.
 */
export interface WriteTask {
  kind: 'write';
  /** The history, `JSON.stringify(messages)` in UTF-8. */
  messages: Uint8Array;
  format: ServedFormat;
  shape?: ConversationShape;
}

/** What a thread answers to a {@link WriteTask}: `JSON.stringify` of the written conversation in UTF-8. */
export type WriteAnswer = { kind: 'written'; json: Uint8Array } | { kind: 'error'; error: CarriedError };

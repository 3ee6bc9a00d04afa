import type { ServerResponse } from 'node:http';
import type { Message } from '@compaction/core';
import type { CompactionThreadAnswer, CompactionThreadTask } from '../workers/compact-task.js';
import { messagesJsonBytes } from '../workers/messages-json.js';
import { rebuildError } from '../workers/strategy-task.js';
import { type WorkerPool, WorkerUnavailableError } from '../workers/worker-pool.js';
import type { WriteAnswer } from '../workers/write-task.js';
import { messagesBytes } from './message-bytes.js';
import { type ConversationShape, conversationJson, type ServedFormat } from './request-conversation.js';

/**
 * Writes a conversation as the bytes of its JSON in its format and shape: `JSON.stringify` of
 * {@link conversationJson}, on the event loop or on a compaction thread.
 */
export type ConversationWriter = (
  messages: readonly Message[],
  format: ServedFormat,
  shape: ConversationShape | undefined,
) => Promise<Uint8Array>;

/** The conversation written on the event loop. */
export const inlineConversationWriter: ConversationWriter = async (messages, format, shape) =>
  Buffer.from(JSON.stringify(await conversationJson(messages, format, shape)), 'utf8');

/**
 * Smallest history, in bytes of its messages as JSON, whose answer's conversation is written on a thread by
 * default: 256 KiB, as for `POST /v1/compact`. Below it writing takes a few milliseconds of the event loop,
 * about what moving the history to a thread and the answer back costs.
 */
export const defaultThreadedAnswerBytes = 256 * 1024;

/** Settings of {@link threadedConversationWriter}. */
export interface ThreadedConversationWriterSettings {
  pool: Pick<WorkerPool<CompactionThreadTask, CompactionThreadAnswer>, 'run'>;
  /** Histories this large or larger, in bytes of their messages as JSON, are written on a thread. */
  minimumBytes: number;
  /** Told once when the threads cannot be used; everything is written on the event loop from then on. */
  unavailable(error: Error): void;
}

/**
 * Writes large conversations on a compaction thread: the event loop joins the history's JSON (each message
 * encoded once, see `messagesJsonBytes`), moves the bytes to the thread, which converts and serializes, and
 * moves the answer's bytes back; small ones are written on the event loop.
 */
export function threadedConversationWriter(settings: ThreadedConversationWriterSettings): ConversationWriter {
  const { pool, minimumBytes, unavailable } = settings;
  let usable = true;
  return async (messages, format, shape) => {
    if (!usable || messagesBytes(messages) < minimumBytes) {
      return inlineConversationWriter(messages, format, shape);
    }
    const encoded = messagesJsonBytes(messages);
    let answer: WriteAnswer;
    try {
      answer = (await pool.run(
        { kind: 'write', messages: encoded, format, ...(shape === undefined ? {} : { shape }) },
        [encoded.buffer as ArrayBuffer],
      )) as WriteAnswer;
    } catch (error) {
      if (error instanceof WorkerUnavailableError) {
        if (usable) unavailable(error);
        usable = false;
      }
      // A thread that died is replaced by the next task; this answer, whose change the session already made,
      // is written here rather than failed (writing is pure, so doing it again is safe).
      return inlineConversationWriter(messages, format, shape);
    }
    if (answer.kind === 'error') throw rebuildError(answer.error);
    return answer.json;
  };
}

/**
 * Answers `{...head, "conversation": <conversation>, ...tail}` as JSON, the conversation's bytes spliced in as
 * they are: the same bytes as `JSON.stringify` of that object, without parsing and serializing the
 * conversation again on the event loop.
 */
export function sendJsonWithConversation(
  response: ServerResponse,
  status: number,
  head: Record<string, unknown>,
  conversation: Uint8Array,
  tail: Record<string, unknown>,
): void {
  const headText = JSON.stringify(head);
  const tailText = JSON.stringify(tail);
  const opening = Buffer.from(
    `${headText === '{}' ? '{' : `${headText.slice(0, -1)},`}"conversation":`,
    'utf8',
  );
  const closing = Buffer.from(tailText === '{}' ? '}' : `,${tailText.slice(1)}`, 'utf8');
  const length = opening.byteLength + conversation.byteLength + closing.byteLength;
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': length,
  });
  response.write(opening);
  response.write(conversation);
  response.end(closing);
}

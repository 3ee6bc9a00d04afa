import type { Message } from '@compaction/core';
import { conversationJson } from '../serve/request-conversation.js';
import { carryError } from './strategy-task.js';
import type { WriteAnswer, WriteTask } from './write-task.js';

/**
 * Writes a session's conversation on this thread, exactly as the event loop would (`JSON.stringify` of
 * {@link conversationJson}), so an answer spliced from it is byte for byte the one written inline.
 */
export async function runWriteTask(task: WriteTask): Promise<WriteAnswer> {
  try {
    const messages = JSON.parse(Buffer.from(task.messages).toString('utf8')) as Message[];
    const written = await conversationJson(messages, task.format, task.shape);
    return { kind: 'written', json: new TextEncoder().encode(JSON.stringify(written)) };
  } catch (error) {
    return { kind: 'error', error: carryError(error) };
  }
}

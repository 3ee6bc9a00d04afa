import { deepEqual, findMessageIssues, InvalidMessagesError, type Message } from '@compaction/core';
import { ConversionProblem } from '@compaction/provider-utils';
import { decodeMessage } from './decode-message.js';
import { encodeMessage, type Flavor } from './encode-message.js';
import { joinReferencedTurns } from './join-referenced-turns.js';

/**
 * Decodes AI SDK messages of either flavor into core messages. A message carrying a compaction slot is
 * checked by encoding it back; if that does not reproduce it exactly (a slot written by hand, say), the slot
 * is kept as an ordinary provider option instead, so the conversion stays lossless. Messages of one model
 * turn split over several steps are marked to stay together (see {@link joinReferencedTurns}).
 */
export function decodeMessages(messages: readonly unknown[], flavor: Flavor): Message[] {
  if (!Array.isArray(messages)) {
    throw new InvalidMessagesError({
      issues: [{ index: -1, path: '', message: 'expected an array of messages' }],
    });
  }
  return joinReferencedTurns(messages.map((message, index) => decodeOne(message, index, flavor)));
}

/** Decodes one AI SDK message; see {@link decodeMessages}. */
export function decodeOne(message: unknown, index: number, flavor: Flavor): Message {
  let decoded: Message;
  try {
    const attempt = decodeMessage(message, true);
    decoded =
      attempt.usedSlot && !deepEqual(encodeMessage(attempt.message, flavor), message)
        ? decodeMessage(message, false).message
        : attempt.message;
  } catch (error) {
    if (error instanceof ConversionProblem) {
      throw new InvalidMessagesError({
        issues: [{ index, path: error.path, message: error.message }],
        cause: error,
      });
    }
    throw error;
  }
  const issues = findMessageIssues([decoded]);
  if (issues.length > 0)
    throw new InvalidMessagesError({ issues: issues.map((issue) => ({ ...issue, index })) });
  return decoded;
}

/** Encodes core messages in the given AI SDK flavor. Throws `InvalidMessagesError` for malformed input. */
export function encodeMessages(messages: readonly Message[], flavor: Flavor): unknown[] {
  const issues = findMessageIssues(messages);
  if (issues.length > 0) throw new InvalidMessagesError({ issues });
  return messages.map((message) => encodeMessage(message, flavor));
}

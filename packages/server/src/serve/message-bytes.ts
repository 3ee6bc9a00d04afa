import type { Message } from '@compaction/core';

// Messages a compaction keeps are the same objects, so a session re-measures only what is new.
const measured = new WeakMap<Message, number>();

/** Bytes of a message as JSON, the way it arrived and is answered; memoized per message object. */
export function messageBytes(message: Message): number {
  let bytes = measured.get(message);
  if (bytes === undefined) {
    bytes = Buffer.byteLength(JSON.stringify(message), 'utf8');
    measured.set(message, bytes);
  }
  return bytes;
}

/** Bytes of a message list as JSON (the brackets and commas left out). */
export function messagesBytes(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) total += messageBytes(message);
  return total;
}

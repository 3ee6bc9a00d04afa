import type { Message } from '@compaction/core';
import { mapInSlices } from './event-loop-slices.js';

/**
 * Each message's JSON in UTF-8, kept while the message lives. Messages are never changed in place and a
 * compaction keeps the ones it does not change as the same objects, so a long history sent to a thread again
 * and again (each answer of a session, each compaction) is encoded once per message, not once per send: the
 * event loop then only copies bytes. It costs about the history's JSON size in memory beside it.
 */
const encodedMessages = new WeakMap<Message, Buffer>();

function encodedMessage(message: Message): Buffer {
  let bytes = encodedMessages.get(message);
  if (bytes === undefined) {
    const text = JSON.stringify(message);
    // In memory of its own: a small buffer from Node's shared pool would keep the whole pool slab alive.
    bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
    bytes.write(text, 'utf8');
    encodedMessages.set(message, bytes);
  }
  return bytes;
}

const openingBracket = 0x5b;
const comma = 0x2c;
const closingBracket = 0x5d;

/**
 * `JSON.stringify(messages)` in UTF-8, in an `ArrayBuffer` of its own so it can be moved to a thread whole: the
 * same bytes, as a list's JSON is its items' JSON between brackets, separated by commas.
 */
export function messagesJsonBytes(messages: readonly Message[]): Uint8Array {
  return joined(messages.map(encodedMessage));
}

/**
 * {@link messagesJsonBytes}, encoding the messages in slices of the event loop: a large history's encoding
 * (tens of milliseconds for megabytes) does not hold the server's other clients.
 */
export async function messagesJsonBytesInSlices(messages: readonly Message[]): Promise<Uint8Array> {
  return joined(await mapInSlices(messages, encodedMessage));
}

function joined(pieces: readonly Buffer[]): Uint8Array {
  let length = 2 + Math.max(0, pieces.length - 1);
  for (const piece of pieces) length += piece.byteLength;
  const bytes = new Uint8Array(length);
  bytes[0] = openingBracket;
  let offset = 1;
  for (const [index, piece] of pieces.entries()) {
    if (index > 0) bytes[offset++] = comma;
    bytes.set(piece, offset);
    offset += piece.byteLength;
  }
  bytes[offset] = closingBracket;
  return bytes;
}

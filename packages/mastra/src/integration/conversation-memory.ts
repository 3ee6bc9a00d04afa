import type { Message } from '@compaction/core';
import { fromMastraMessage } from '../convert/from-mastra.js';
import type { MastraMessage } from '../mastra-types.js';

/** What is remembered of one conversation between calls of the agent. */
interface Conversation {
  /** A fingerprint of each Mastra message of the previous call. */
  fingerprints: string[];
  /** Their core conversions, message for message. */
  pieces: Message[][];
  /** How many leading Mastra messages the compacted history stands in for. */
  compactedCount?: number;
  compacted?: readonly Message[];
}

/** The core history of one call. */
export interface ConversationView {
  conversation: Conversation;
  count: number;
  /** The compacted history followed by the messages added since, or all messages converted. */
  messages: Message[];
  replaced: boolean;
  /** The Mastra message each core message of this call came from, and all the pieces it became. */
  origins: Map<Message, { source: MastraMessage; pieces: Message[] }>;
}

/**
 * Remembers, per conversation, the compacted history that stands in for the earlier messages. A Mastra agent
 * is given the whole history on every call (and makes new ids and dates for messages given without them), so
 * earlier messages are recognised by their role and parts: the conversions of the previous call are reused
 * (which keeps token counts memoized), and after a compaction its result replaces the messages it covered.
 * A call continues the conversation of the given id, else the most recently used one whose messages it
 * starts with, else starts a new one. A bounded number are kept, least recently used first out.
 */
export class ConversationMemory {
  private readonly conversations = new Map<string, Conversation>();
  private unnamed = 0;

  constructor(private readonly maximumConversations = 64) {}

  view(messages: readonly MastraMessage[], conversationId?: string): ConversationView {
    const fingerprints = messages.map(fingerprintOf);
    const key = conversationId === undefined ? this.extendedKey(fingerprints) : `id:${conversationId}`;
    const conversation = this.conversation(key);
    let same = 0;
    const shared = Math.min(conversation.fingerprints.length, fingerprints.length);
    while (same < shared && conversation.fingerprints[same] === fingerprints[same]) same++;
    const origins: ConversationView['origins'] = new Map();
    const pieces = messages.map((message, index) => {
      const converted = index < same ? conversation.pieces[index]! : fromMastraMessage(message, index);
      for (const piece of converted) origins.set(piece, { source: message, pieces: converted });
      return converted;
    });
    const { compactedCount, compacted } = conversation;
    const replaced = compactedCount !== undefined && compacted !== undefined && compactedCount <= same;
    if (!replaced) {
      conversation.compactedCount = undefined;
      conversation.compacted = undefined;
    }
    conversation.fingerprints = fingerprints;
    conversation.pieces = pieces;
    const rest = pieces.slice(replaced ? compactedCount : 0).flat();
    return {
      conversation,
      count: messages.length,
      messages: replaced ? [...compacted!, ...rest] : rest,
      replaced,
      origins,
    };
  }

  /** Records that `messages` now stand in for every Mastra message `view` covered. */
  commit(view: ConversationView, messages: readonly Message[]): void {
    view.conversation.compactedCount = view.count;
    view.conversation.compacted = [...messages];
  }

  private extendedKey(fingerprints: readonly string[]): string {
    const keys = [...this.conversations.keys()].reverse();
    const extended = keys.find((key) => {
      const previous = this.conversations.get(key)!.fingerprints;
      return (
        key.startsWith('unnamed:') &&
        previous.length <= fingerprints.length &&
        previous.every((fingerprint, index) => fingerprint === fingerprints[index])
      );
    });
    return extended ?? `unnamed:${++this.unnamed}`;
  }

  private conversation(key: string): Conversation {
    let conversation = this.conversations.get(key);
    if (conversation === undefined) {
      conversation = { fingerprints: [], pieces: [] };
      if (this.conversations.size >= this.maximumConversations) {
        const oldest = this.conversations.keys().next().value;
        if (oldest !== undefined) this.conversations.delete(oldest);
      }
    } else this.conversations.delete(key);
    // Re-inserted so the map's order is least recently used first.
    this.conversations.set(key, conversation);
    return conversation;
  }
}

/** What makes a message the same from call to call: its role and parts (Mastra may give it a new id and date). */
function fingerprintOf(message: MastraMessage): string {
  return JSON.stringify([message.role, message.content.parts]);
}

import type { Message } from '@compaction/core';
import { deepEqual } from '@compaction/core';
import { joinReferencedTurns } from '../convert/join-referenced-turns.js';

/** What is remembered about one conversation between calls. */
export interface Conversation {
  /** The caller's messages of the previous call. */
  items: readonly object[];
  /** Their core conversions, index for index. */
  messages: readonly Message[];
  /** How many leading caller messages the compacted history stands in for. */
  compactedCount?: number;
  /** The compacted history standing in for them. */
  compacted?: readonly Message[];
}

/** The core history to use for one call. */
export interface ConversationView {
  conversation: Conversation;
  /** How many caller messages the view covers. */
  count: number;
  /** The compacted history followed by the messages added since, or all messages converted. */
  messages: Message[];
  /** Whether an earlier compaction stands in for part of the caller's messages. */
  replaced: boolean;
}

/**
 * Remembers, per conversation, the compacted history that stands in for the caller's messages. The AI SDK
 * hands every step the full, uncompacted history again (its `messages` are never changed), so the compacted
 * history is re-applied on each step: the caller's messages it replaced are recognised (as the same objects,
 * or equal ones: a middleware gets new prompt objects on every call) and only the messages added since are
 * converted. Converted messages keep their identity from call to call, which keeps token counts memoized and
 * anchored on reported usage.
 *
 * Conversations are told apart by the id the caller gives; without one, a call continues the most recently
 * used conversation whose messages it starts with (the AI SDK resends a conversation whole, with the new
 * messages after it), and otherwise starts a new one. So two conversations that share a system prompt, or
 * even their first exchanges, never merge: each call continues only a conversation it extends. A bounded
 * number are kept, least recently used first out.
 */
export class ConversationTracker<Item extends object> {
  private readonly conversations = new Map<string, Conversation>();
  private unnamed = 0;
  private readonly decoded = new WeakMap<object, Message>();
  private readonly origins = new WeakMap<Message, Item>();
  private readonly joined = new WeakMap<Message, Message>();
  private readonly decode: (item: Item, index: number) => Message;
  private readonly maximumConversations: number;

  constructor(decode: (item: Item, index: number) => Message, maximumConversations = 64) {
    this.decode = decode;
    this.maximumConversations = maximumConversations;
  }

  /** The core history for `items`, of the conversation `conversationId` when given; `items` is not changed. */
  view(items: readonly Item[], conversationId?: string): ConversationView {
    const conversation = this.conversation(
      conversationId === undefined ? this.extendedKey(items) : `id:${conversationId}`,
    );
    const previous = conversation.items;
    // Equal to the previous call's messages up to here: their conversions are reused.
    let same = 0;
    const shared = Math.min(previous.length, items.length);
    while (same < shared && (items[same] === previous[same] || deepEqual(items[same], previous[same])))
      same++;

    const decoded = items.map((item, index) => {
      if (index < same) return conversation.messages[index]!;
      let message = this.decoded.get(item);
      if (message === undefined) {
        message = this.decode(item, index);
        this.origins.set(message, item);
        this.decoded.set(item, message);
      }
      return message;
    });
    // Marked copies of messages that join the turn before them; unchanged, they go back as the caller's own.
    const converted = joinReferencedTurns(decoded, this.joined);
    converted.forEach((message, index) => {
      const origin = this.origins.get(decoded[index]!);
      if (message !== decoded[index] && origin !== undefined) this.origins.set(message, origin);
    });

    const { compactedCount, compacted } = conversation;
    let messages = converted;
    let replaced = false;
    if (compactedCount !== undefined && compacted !== undefined && compactedCount <= same) {
      messages = [...compacted, ...converted.slice(compactedCount)];
      replaced = true;
    } else {
      conversation.compactedCount = undefined;
      conversation.compacted = undefined;
    }
    conversation.items = [...items];
    conversation.messages = converted;
    return { conversation, count: items.length, messages, replaced };
  }

  /** Records that `messages` now stand in for every caller message `view` covered. */
  commit(view: ConversationView, messages: readonly Message[]): void {
    view.conversation.compactedCount = view.count;
    view.conversation.compacted = [...messages];
  }

  /**
   * The AI SDK message for a core message: the one it was decoded from (conversions are lossless, so unchanged
   * messages go back as the caller's own objects), or a new encoding, remembered both ways.
   */
  encode(message: Message, encode: (message: Message) => Item): Item {
    let item = this.origins.get(message);
    if (item === undefined) {
      item = encode(message);
      this.origins.set(message, item);
      this.decoded.set(item, message);
    }
    return item;
  }

  /** The key of the most recently used unnamed conversation that `items` extend, or a new key. */
  private extendedKey(items: readonly Item[]): string {
    const keys = [...this.conversations.keys()].reverse();
    const extended = keys.find((key) => {
      const previous = this.conversations.get(key)!.items;
      return (
        key.startsWith('unnamed:') &&
        previous.length <= items.length &&
        previous.every((item, index) => item === items[index] || deepEqual(item, items[index]))
      );
    });
    return extended ?? `unnamed:${++this.unnamed}`;
  }

  private conversation(firstKey: string): Conversation {
    let conversation = this.conversations.get(firstKey);
    if (conversation === undefined) {
      conversation = { items: [], messages: [] };
      if (this.conversations.size >= this.maximumConversations) {
        const oldest = this.conversations.keys().next().value;
        if (oldest !== undefined) this.conversations.delete(oldest);
      }
    } else {
      this.conversations.delete(firstKey);
    }
    // Re-inserted so the map's order is least recently used first.
    this.conversations.set(firstKey, conversation);
    return conversation;
  }
}

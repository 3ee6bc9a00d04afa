import type { Message } from '@compaction/core';
import type { BaseMessage } from '@langchain/core/messages';
import type { CallNames } from '../convert/decode-message.js';
import { encodeMessage } from '../convert/encode-message.js';
import { decodeOne } from '../convert/langchain-messages.js';

/**
 * Converts an agent's messages both ways, each message once: a LangChain message keeps its core message from
 * call to call (so token counts stay memoized and anchored on reported usage), and a core message that came
 * from a LangChain message goes back as that very object (its id included, which LangGraph's state keys on).
 */
export class MessageMemo {
  private readonly decoded = new WeakMap<object, Message>();
  private readonly origins = new WeakMap<Message, BaseMessage>();

  decode(items: readonly BaseMessage[]): Message[] {
    const callNames: CallNames = new Map();
    return items.map((item, index) => {
      let message = this.decoded.get(item);
      if (message === undefined) {
        message = decodeOne(item, index, callNames);
        this.decoded.set(item, message);
        this.origins.set(message, item);
        return message;
      }
      for (const part of message.content)
        if (part.type === 'tool-call') callNames.set(part.toolCallId, part.toolName);
      return message;
    });
  }

  encode(messages: readonly Message[]): BaseMessage[] {
    return messages.flatMap((message) => {
      const origin = this.origins.get(message);
      if (origin !== undefined) return [origin];
      const encoded = encodeMessage(message);
      if (encoded.length === 1) {
        this.origins.set(message, encoded[0]!);
        this.decoded.set(encoded[0]!, message);
      }
      return encoded;
    });
  }
}

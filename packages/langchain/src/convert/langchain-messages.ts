import { InvalidMessagesError, type Message } from '@compaction/core';
import { ConversionProblem } from '@compaction/provider-utils';
import { type BaseMessage, type BaseMessageLike, coerceMessageLikeToMessage } from '@langchain/core/messages';
import { type CallNames, decodeMessage } from './decode-message.js';
import { encodeMessage } from './encode-message.js';

/**
 * Converts LangChain messages (`HumanMessage`, `SystemMessage`, `AIMessage` with its `tool_calls`, `ToolMessage`,
 * or anything `coerceMessageLikeToMessage` accepts) to core messages. Lossless: {@link toLangChain} gives the
 * same messages back, field for field (content blocks, names, kwargs, response and usage metadata, artifacts).
 * A message kind core has no place for (`ChatMessage`, `FunctionMessage`, `RemoveMessage`) or a tool call
 * without an id throws `InvalidMessagesError`. The input is not changed.
 */
export function fromLangChain(messages: readonly BaseMessageLike[]): Message[] {
  if (!Array.isArray(messages)) {
    throw new InvalidMessagesError({ issues: [{ index: 0, path: '', message: 'messages must be a list' }] });
  }
  const callNames: CallNames = new Map();
  return messages.map((message, index) => decodeOne(message, index, callNames));
}

/** One message of a list, the list's earlier tool calls named in `callNames`. */
export function decodeOne(message: BaseMessageLike, index: number, callNames: CallNames): Message {
  try {
    return decodeMessage(coerceMessageLikeToMessage(message), callNames);
  } catch (error) {
    if (!(error instanceof ConversionProblem)) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new InvalidMessagesError({ issues: [{ index, path: '', message: reason }], cause: error });
    }
    throw new InvalidMessagesError({ issues: [{ index, path: error.path, message: error.message }] });
  }
}

/**
 * Converts core messages to LangChain messages: messages read by {@link fromLangChain} come back as they were,
 * others (a summary, a removal note, a shortened tool result) as LangChain v1 writes them. A core tool message
 * with several results becomes one `ToolMessage` per result. Core metadata goes to `additional_kwargs`
 * (`compaction` for the compaction marks, `compaction_metadata` for the rest), which chat models do not send.
 */
export function toLangChain(messages: readonly Message[]): BaseMessage[] {
  return messages.flatMap((message) => encodeMessage(message));
}

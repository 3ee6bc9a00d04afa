/**
 * LangChain.js `trimMessages` (strategy `last`) as a peer: the history converted once, untimed, to LangChain's
 * types, counted with the same memoized core counter, and its output converted back to core messages so that
 * it can be verified like ours.
 */
import {
  type Message,
  type TokenCounter,
  type ToolMessage as ToolCoreMessage,
  type ToolResultPart,
  withCompactionMetadata,
} from '@compaction/core';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  trimMessages,
} from '@langchain/core/messages';

/** Where a LangChain message came from: a core message, or one result of a core tool message. */
interface Origin {
  message: Message;
  /** The tool result's index in the core tool message, for a tool message split into one per result. */
  part?: number;
}

/** A history in LangChain's types, with the origin of each LangChain message under its `id`. */
export interface LangChainHistory {
  messages: BaseMessage[];
  /**
   * Keyed by `id`, which `trimMessages` carries over to the copies it makes of every message: a lookup by
   * object identity would miss every copy, count nothing, and let it keep the whole history.
   */
  origins: Map<string, Origin>;
}

export function toLangChain(history: readonly Message[]): LangChainHistory {
  const messages: BaseMessage[] = [];
  const origins = new Map<string, Origin>();
  history.forEach((message, index) => {
    const id = String(index);
    const text = message.content
      .map((part) => (part.type === 'text' || part.type === 'reasoning' ? part.text : ''))
      .join('\n');
    switch (message.role) {
      case 'system':
        messages.push(new SystemMessage({ id, content: text }));
        break;
      case 'user':
        messages.push(new HumanMessage({ id, content: text }));
        break;
      case 'assistant':
        messages.push(
          new AIMessage({
            id,
            content: text,
            tool_calls: message.content.flatMap((part) =>
              part.type === 'tool-call'
                ? [{ id: part.toolCallId, name: part.toolName, args: part.input as Record<string, unknown> }]
                : [],
            ),
          }),
        );
        break;
      case 'tool':
        // LangChain has one result per tool message, so a core tool message with several becomes several.
        message.content.forEach((part, partIndex) => {
          const partId = `${id}:${partIndex}`;
          messages.push(
            new ToolMessage({
              id: partId,
              content: textOfOutput(part.output),
              tool_call_id: part.toolCallId,
            }),
          );
          origins.set(partId, { message, part: partIndex });
        });
        return;
    }
    origins.set(id, { message });
  });
  return { messages, origins };
}

/**
 * `trimMessages` keeping the last `maxTokens`, counting with the core counter: a tool message split in several
 * counts its core message's tokens on its first result, so the whole history counts what core counts.
 */
export function trimWithLangChain(
  history: LangChainHistory,
  counter: TokenCounter,
  maxTokens: number,
): Promise<BaseMessage[]> {
  const tokenCounter = (messages: BaseMessage[]) => {
    let total = 0;
    for (const message of messages) {
      const origin = history.origins.get(message.id!);
      if (origin === undefined)
        throw new Error(`trimMessages returned a message of unknown id ${message.id}`);
      if (origin.part === undefined || origin.part === 0) total += counter.countMessage(origin.message);
    }
    return total;
  };
  return trimMessages(history.messages, {
    maxTokens,
    strategy: 'last',
    tokenCounter,
    includeSystem: true,
    startOn: 'human',
  });
}

/**
 * The core history `trimMessages` kept: the original core message for every message it kept whole, and a
 * tool message marked as changed for one it kept only some results of.
 */
export function fromLangChain(history: LangChainHistory, kept: readonly BaseMessage[]): Message[] {
  const result: Message[] = [];
  let pending: { message: ToolCoreMessage; parts: number[] } | undefined;
  const flush = () => {
    if (pending === undefined) return;
    const { message, parts } = pending;
    result.push(
      parts.length === message.content.length
        ? message
        : withCompactionMetadata(
            message,
            { kind: 'modified' },
            parts.map((part) => message.content[part]!),
          ),
    );
    pending = undefined;
  };
  for (const converted of kept) {
    // When nothing fits, `trimMessages` with `includeSystem` returns `[undefined]` rather than `[]`.
    if (converted === undefined) throw new Error('trimMessages returned an undefined message');
    const origin = history.origins.get(converted.id!);
    if (origin === undefined)
      throw new Error(`trimMessages returned a message of unknown id ${converted.id}`);
    if (origin.part === undefined) {
      flush();
      result.push(origin.message);
      continue;
    }
    if (pending?.message !== origin.message) {
      flush();
      pending = { message: origin.message as ToolCoreMessage, parts: [] };
    }
    pending.parts.push(origin.part);
  }
  flush();
  return result;
}

export function textOfOutput(output: ToolResultPart['output']): string {
  return typeof output === 'string'
    ? output
    : output.map((item) => (item.type === 'text' ? item.text : '')).join('\n');
}

/**
 * The peers, fed the same histories converted once (untimed) to their own message types: LangChain.js
 * `trimMessages` (strategy `last`) with the same memoized token counter as its `tokenCounter`, and the AI
 * SDK's `pruneMessages`, which removes old tool calls and results without a token budget, alone and followed
 * by counting what it kept.
 */
import type { Message, TokenCounter, TokenEstimator, ToolResultPart } from '@compaction/core';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  trimMessages,
} from '@langchain/core/messages';
import { type ModelMessage, type ToolResultPart as ModelToolResultPart, pruneMessages } from 'ai';

/** A history in LangChain's types, with the core message each LangChain message came from. */
export interface LangChainHistory {
  messages: BaseMessage[];
  /** The core message a LangChain message counts for; a tool message split in several counts once. */
  origin: WeakMap<BaseMessage, Message>;
}

export function toLangChain(history: readonly Message[]): LangChainHistory {
  const messages: BaseMessage[] = [];
  const origin = new WeakMap<BaseMessage, Message>();
  for (const message of history) {
    const text = message.content
      .map((part) => (part.type === 'text' || part.type === 'reasoning' ? part.text : ''))
      .join('\n');
    switch (message.role) {
      case 'system':
        messages.push(new SystemMessage(text));
        break;
      case 'user':
        messages.push(new HumanMessage(text));
        break;
      case 'assistant':
        messages.push(
          new AIMessage({
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
        for (const part of message.content) {
          const converted = new ToolMessage({
            content: textOfOutput(part.output),
            tool_call_id: part.toolCallId,
          });
          messages.push(converted);
          if (part === message.content[0]) origin.set(converted, message);
        }
        continue;
    }
    origin.set(messages.at(-1)!, message);
  }
  return { messages, origin };
}

/** `trimMessages` keeping the last `maxTokens`, counting with the core counter. */
export function trimWithLangChain(
  history: LangChainHistory,
  counter: TokenCounter,
  maxTokens: number,
): Promise<BaseMessage[]> {
  const tokenCounter = (messages: BaseMessage[]) => {
    let total = 0;
    for (const message of messages) {
      const source = history.origin.get(message);
      if (source !== undefined) total += counter.countMessage(source);
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

export function toModelMessages(history: readonly Message[]): ModelMessage[] {
  return history.map(toModelMessage);
}

function toModelMessage(message: Message): ModelMessage {
  if (message.role === 'system') {
    return { role: 'system', content: message.content.map((part) => part.text).join('\n') };
  }
  if (message.role === 'user') {
    const content: Array<{ type: 'text'; text: string }> = [];
    for (const part of message.content)
      if (part.type === 'text') content.push({ type: 'text', text: part.text });
    return { role: 'user', content };
  }
  if (message.role === 'assistant') {
    const content: Extract<ModelMessage, { role: 'assistant' }>['content'] & unknown[] = [];
    for (const part of message.content) {
      if (part.type === 'text') content.push({ type: 'text', text: part.text });
      else if (part.type === 'reasoning') content.push({ type: 'reasoning', text: part.text });
      else if (part.type === 'tool-call') {
        content.push({
          type: 'tool-call',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: part.input,
        });
      }
    }
    return { role: 'assistant', content };
  }
  return {
    role: 'tool',
    content: message.content.map((part) => ({
      type: 'tool-result' as const,
      toolCallId: part.toolCallId,
      toolName: part.toolName,
      output: { type: 'text' as const, value: textOfOutput(part.output) },
    })),
  };
}

function textOfOutput(output: ToolResultPart['output']): string {
  return typeof output === 'string'
    ? output
    : output.map((item) => (item.type === 'text' ? item.text : '')).join('\n');
}

/** `pruneMessages` removing tool calls and results older than the last `keepMessages` messages. */
export function pruneWithAiSdk(messages: ModelMessage[], keepMessages: number): ModelMessage[] {
  return pruneMessages({ messages, toolCalls: `before-last-${keepMessages}-messages` });
}

/**
 * Tokens of the texts of AI SDK messages, as the core estimator counts a message's parts without its fixed
 * overheads: text, reasoning, tool names and JSON inputs, tool outputs. Our strategies count their output so
 * they can stop at a target; this puts the same kind of work after `pruneMessages`, which counts nothing.
 */
export function countModelMessageTexts(messages: readonly ModelMessage[], estimator: TokenEstimator): number {
  let tokens = 0;
  for (const message of messages) {
    if (typeof message.content === 'string') {
      tokens += estimator.countText(message.content);
      continue;
    }
    for (const part of message.content) {
      switch (part.type) {
        case 'text':
        case 'reasoning':
          tokens += estimator.countText(part.text);
          break;
        case 'tool-call':
          tokens +=
            estimator.countText(part.toolName) + estimator.countText(JSON.stringify(part.input) ?? '');
          break;
        case 'tool-result':
          tokens += estimator.countText(textOfModelOutput(part.output));
          break;
      }
    }
  }
  return tokens;
}

function textOfModelOutput(output: ModelToolResultPart['output']): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value) ?? '';
    case 'execution-denied':
      return output.reason ?? '';
    case 'content':
      return output.value.map((item) => (item.type === 'text' ? item.text : '')).join('\n');
  }
}

/**
 * The AI SDK's `pruneMessages` as a peer: it removes old tool calls and results without a token budget. The
 * history is converted once, untimed, to the SDK's `ModelMessage`s, and its output converted back to core
 * messages so that it can be verified like ours.
 */
import { type Message, type Part, type TokenEstimator, withCompactionMetadata } from '@compaction/core';
import { type ModelMessage, type ToolResultPart as ModelToolResultPart, pruneMessages } from 'ai';
import { textOfOutput } from './langchain-peer.js';

type ModelPart = Exclude<ModelMessage['content'], string>[number];

/** A history in the AI SDK's types, with the core part each converted part came from. */
export interface ModelHistory {
  messages: ModelMessage[];
  /** `pruneMessages` keeps the part objects it does not remove, so identity finds their origin. */
  partOrigins: WeakMap<ModelPart, Part>;
}

export function toModelMessages(history: readonly Message[]): ModelHistory {
  const partOrigins = new WeakMap<ModelPart, Part>();
  const converted = <Converted extends ModelPart>(part: Converted, origin: Part): Converted => {
    partOrigins.set(part, origin);
    return part;
  };
  const messages = history.map((message) => toModelMessage(message, converted));
  return { messages, partOrigins };
}

function toModelMessage(
  message: Message,
  converted: <Converted extends ModelPart>(part: Converted, origin: Part) => Converted,
): ModelMessage {
  if (message.role === 'system') {
    return { role: 'system', content: message.content.map((part) => part.text).join('\n') };
  }
  if (message.role === 'user') {
    const content: Array<{ type: 'text'; text: string }> = [];
    for (const part of message.content) {
      if (part.type === 'text') content.push(converted({ type: 'text', text: part.text }, part));
    }
    return { role: 'user', content };
  }
  if (message.role === 'assistant') {
    const content: Extract<ModelMessage, { role: 'assistant' }>['content'] & unknown[] = [];
    for (const part of message.content) {
      if (part.type === 'text') content.push(converted({ type: 'text', text: part.text }, part));
      else if (part.type === 'reasoning')
        content.push(converted({ type: 'reasoning', text: part.text }, part));
      else if (part.type === 'tool-call') {
        const call = {
          type: 'tool-call' as const,
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: part.input,
        };
        content.push(converted(call, part));
      }
    }
    return { role: 'assistant', content };
  }
  return {
    role: 'tool',
    content: message.content.map((part) =>
      converted(
        {
          type: 'tool-result' as const,
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          output: { type: 'text' as const, value: textOfOutput(part.output) },
        },
        part,
      ),
    ),
  };
}

/** `pruneMessages` removing tool calls and results older than the last `keepMessages` messages. */
export function pruneWithAiSdk(history: ModelHistory, keepMessages: number): ModelMessage[] {
  return pruneMessages({ messages: history.messages, toolCalls: `before-last-${keepMessages}-messages` });
}

/**
 * The core history `pruneMessages` kept. It keeps the order, returns the messages it leaves alone as they
 * are, and copies the others with some parts filtered out, so each kept message is found by identity, or by
 * its first part; a copy becomes the core message with the same parts left out, marked as changed.
 */
export function fromModelMessages(
  history: readonly Message[],
  converted: ModelHistory,
  kept: readonly ModelMessage[],
): Message[] {
  const result: Message[] = [];
  let index = 0;
  for (const message of kept) {
    while (index < converted.messages.length && !cameFrom(message, converted.messages[index]!)) index++;
    const original = history[index];
    if (original === undefined) throw new Error('pruneMessages returned a message not in its input');
    index++;
    if (message === converted.messages[index - 1]) {
      result.push(original);
      continue;
    }
    const parts = (message.content as ModelPart[]).map((part) => converted.partOrigins.get(part)!);
    result.push(withCompactionMetadata(original, { kind: 'modified' }, parts as typeof original.content));
  }
  return result;
}

function cameFrom(kept: ModelMessage, input: ModelMessage): boolean {
  if (kept === input) return true;
  if (kept.role !== input.role || typeof kept.content === 'string' || typeof input.content === 'string') {
    return false;
  }
  const first = kept.content[0];
  return first !== undefined && (input.content as ModelPart[]).includes(first);
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

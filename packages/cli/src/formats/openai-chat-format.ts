import type { Message } from '@compaction/core';
import { inputError } from '../errors/cli-error.js';
import { convert } from './anthropic-format.js';
import { type ConversationFormat, isRecord } from './conversation-format.js';
import { loadProviderPackage } from './load-converters.js';

interface OpenAIChatConverters {
  fromOpenAIChatMessages(messages: unknown): Message[];
  toOpenAIChatMessages(messages: readonly Message[]): unknown[];
}

const converters = () =>
  loadProviderPackage<OpenAIChatConverters>('@compaction/provider-openai', [
    'fromOpenAIChatMessages',
    'toOpenAIChatMessages',
  ]);

/**
 * An OpenAI Chat Completions request (`{messages, ...}`) or a bare list of Chat messages, converted by
 * `@compaction/provider-openai`. A bare list is written back as a bare list.
 */
export const openAIChatFormat: ConversationFormat = {
  name: 'openai-chat',
  async read(input) {
    const list = Array.isArray(input) ? input : isRecord(input) ? input.messages : undefined;
    if (!Array.isArray(list)) {
      throw inputError('not an OpenAI Chat Completions request: expected an object with a "messages" list');
    }
    const { fromOpenAIChatMessages } = await converters();
    const messages = convert(() => fromOpenAIChatMessages(list));
    if (Array.isArray(input)) return { format: 'openai-chat', messages, list: true };
    const { messages: _messages, ...envelope } = input as Record<string, unknown>;
    return { format: 'openai-chat', messages, envelope };
  },
  async write(messages, input) {
    const { toOpenAIChatMessages } = await converters();
    const converted = toOpenAIChatMessages(messages);
    // A conversion from another format has no request around it: a bare list, as Chat messages are sent.
    const value = input === undefined || input.list ? converted : { ...input.envelope, messages: converted };
    return `${JSON.stringify(value, null, 2)}\n`;
  },
};

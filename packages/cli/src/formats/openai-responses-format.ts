import type { Message } from '@compaction/core';
import { inputError } from '../errors/cli-error.js';
import { convert } from './anthropic-format.js';
import { type ConversationFormat, isRecord } from './conversation-format.js';
import { loadProviderPackage } from './load-converters.js';

interface OpenAIResponsesConverters {
  fromOpenAIResponsesInput(input: unknown, instructions?: string): Message[];
  toOpenAIResponsesInput(messages: readonly Message[]): unknown;
}

const converters = () =>
  loadProviderPackage<OpenAIResponsesConverters>('@compaction/provider-openai', [
    'fromOpenAIResponsesInput',
    'toOpenAIResponsesInput',
  ]);

/**
 * An OpenAI Responses request (`{input, instructions?, ...}`) or a bare list of input items, converted by
 * `@compaction/provider-openai`. A bare list is written back as a bare list.
 */
export const openAIResponsesFormat: ConversationFormat = {
  name: 'openai-responses',
  async read(input) {
    if (Array.isArray(input)) {
      const { fromOpenAIResponsesInput } = await converters();
      return {
        format: 'openai-responses',
        messages: convert(() => fromOpenAIResponsesInput(input)),
        list: true,
      };
    }
    if (!isRecord(input) || (typeof input.input !== 'string' && !Array.isArray(input.input))) {
      throw inputError('not an OpenAI Responses request: expected an object with an "input" list or string');
    }
    const { fromOpenAIResponsesInput } = await converters();
    const { input: items, ...envelope } = input;
    return {
      format: 'openai-responses',
      messages: convert(() => fromOpenAIResponsesInput(items)),
      envelope,
    };
  },
  async write(messages, input) {
    const { toOpenAIResponsesInput } = await converters();
    const items = toOpenAIResponsesInput(messages);
    const value = input?.list ? items : { ...input?.envelope, input: items };
    return `${JSON.stringify(value, null, 2)}\n`;
  },
};

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

/** An OpenAI Responses request (`{input, instructions?, ...}`), converted by `@compaction/provider-openai`. */
export const openAIResponsesFormat: ConversationFormat = {
  name: 'openai-responses',
  async read(input) {
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
  async write(messages, envelope) {
    const { toOpenAIResponsesInput } = await converters();
    return `${JSON.stringify({ ...envelope, input: toOpenAIResponsesInput(messages) }, null, 2)}\n`;
  },
};

import type { Message } from '@compaction/core';
import { inputError } from '../errors/cli-error.js';
import { type ConversationFormat, isRecord } from './conversation-format.js';
import { loadProviderPackage } from './load-converters.js';

interface AnthropicConverters {
  fromAnthropicRequest(request: unknown): Message[];
  toAnthropicRequest(messages: readonly Message[]): { system?: unknown; messages: unknown[] };
}

const converters = () =>
  loadProviderPackage<AnthropicConverters>('@compaction/provider-anthropic', [
    'fromAnthropicRequest',
    'toAnthropicRequest',
  ]);

/**
 * An Anthropic Messages request (`{system?, messages, ...}`) or a bare list of its messages, converted by
 * `@compaction/provider-anthropic`. A bare list is written back as a bare list.
 */
export const anthropicFormat: ConversationFormat = {
  name: 'anthropic',
  async read(input) {
    if (Array.isArray(input)) {
      const { fromAnthropicRequest } = await converters();
      return {
        format: 'anthropic',
        messages: convert(() => fromAnthropicRequest({ messages: input })),
        list: true,
      };
    }
    if (!isRecord(input) || !Array.isArray(input.messages)) {
      throw inputError('not an Anthropic Messages request: expected an object with a "messages" list');
    }
    const { fromAnthropicRequest } = await converters();
    const { system, messages, ...envelope } = input;
    const request = system === undefined ? { messages } : { system, messages };
    return { format: 'anthropic', messages: convert(() => fromAnthropicRequest(request)), envelope };
  },
  async write(messages, input) {
    const { toAnthropicRequest } = await converters();
    const request = toAnthropicRequest(messages);
    // The system prompt goes before the messages, as in a hand-written request; a list has no room for one.
    const { messages: converted, ...system } = request;
    const value =
      input?.list && system.system === undefined
        ? converted
        : { ...input?.envelope, ...system, messages: converted };
    return `${JSON.stringify(value, null, 2)}\n`;
  },
};

/** Runs a converter, turning its typed error into one line about the input. */
export function convert<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw inputError(`the input does not convert: ${(error as Error).message}`, error);
  }
}

import type { Message } from '@compaction/core';
import { fromAnthropicRequest, toAnthropicRequest } from '@compaction/provider-anthropic';
import {
  fromOpenAIChatMessages,
  fromOpenAIResponsesInput,
  toOpenAIChatMessages,
  toOpenAIResponsesInput,
} from '@compaction/provider-openai';
import type { ProviderConverters } from '@compaction/testing';

type Request = Record<string, unknown>;

/**
 * `original` with the given fields replaced in place (same key order), fields set to `undefined` removed,
 * and new fields added before `before`: a request written back differs only where its conversation does.
 */
function withFields(original: Request, fields: Request, before: string): Request {
  const result: Request = {};
  const pending = new Map(Object.entries(fields).filter(([key]) => !(key in original)));
  for (const [key, value] of Object.entries(original)) {
    if (key === before) {
      for (const [newKey, newValue] of pending) if (newValue !== undefined) result[newKey] = newValue;
      pending.clear();
    }
    const next = key in fields ? fields[key] : value;
    if (next !== undefined) result[key] = next;
  }
  for (const [key, value] of pending) if (value !== undefined) result[key] = value;
  return result;
}

/** Anthropic Messages requests: `system` and `messages`. */
export const anthropicConverters: ProviderConverters = {
  format: 'anthropic',
  read: (request) => fromAnthropicRequest(request as Parameters<typeof fromAnthropicRequest>[0]),
  write(messages: Message[], original) {
    const { system, messages: converted } = toAnthropicRequest(messages);
    return withFields(original as Request, { system, messages: converted }, 'messages');
  },
};

/**
 * Converters of a format whose whole conversation is one request field: read from that field, written back
 * into it.
 */
function fieldConverters<Value>(
  format: ProviderConverters['format'],
  field: string,
  read: (value: Value) => Message[],
  write: (messages: Message[]) => unknown,
): ProviderConverters {
  return {
    format,
    read: (request) => read((request as Request)[field] as Value),
    write: (messages, original) => withFields(original as Request, { [field]: write(messages) }, field),
  };
}

/** OpenAI Chat Completions requests: `messages`. */
export const openAIChatConverters = fieldConverters(
  'openai-chat',
  'messages',
  fromOpenAIChatMessages,
  toOpenAIChatMessages,
);

/** OpenAI Responses requests: `input` (the `instructions` field is not part of the history). */
export const openAIResponsesConverters = fieldConverters(
  'openai-responses',
  'input',
  fromOpenAIResponsesInput,
  toOpenAIResponsesInput,
);

/** Every provider format whose contract the kit checks. */
export const providerConverters: readonly ProviderConverters[] = [
  anthropicConverters,
  openAIChatConverters,
  openAIResponsesConverters,
];

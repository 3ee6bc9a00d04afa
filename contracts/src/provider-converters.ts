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

/** OpenAI Chat Completions requests: `messages`. */
export const openAIChatConverters: ProviderConverters = {
  format: 'openai-chat',
  read: (request) =>
    fromOpenAIChatMessages((request as Request).messages as Parameters<typeof fromOpenAIChatMessages>[0]),
  write: (messages, original) =>
    withFields(original as Request, { messages: toOpenAIChatMessages(messages) }, 'messages'),
};

/** OpenAI Responses requests: `input` (the `instructions` field is not part of the history). */
export const openAIResponsesConverters: ProviderConverters = {
  format: 'openai-responses',
  read: (request) =>
    fromOpenAIResponsesInput((request as Request).input as Parameters<typeof fromOpenAIResponsesInput>[0]),
  write: (messages, original) =>
    withFields(original as Request, { input: toOpenAIResponsesInput(messages) }, 'input'),
};

/** Every provider format whose contract the kit checks. */
export const providerConverters: readonly ProviderConverters[] = [
  anthropicConverters,
  openAIChatConverters,
  openAIResponsesConverters,
];

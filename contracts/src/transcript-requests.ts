import type { Message } from '@compaction/core';
import { toAnthropicRequest } from '@compaction/provider-anthropic';
import { toOpenAIChatMessages, toOpenAIResponsesInput } from '@compaction/provider-openai';
import type { ProviderRequestFormat } from '@compaction/testing';

/** A real transcript as the request an agent would send to each provider. */
export function requestOf(format: ProviderRequestFormat, messages: Message[]): Record<string, unknown> {
  switch (format) {
    case 'anthropic':
      return { model: 'claude-sonnet-4-5', max_tokens: 8192, ...toAnthropicRequest(messages) };
    case 'openai-chat':
      return { model: 'gpt-4.1', messages: toOpenAIChatMessages(messages) };
    case 'openai-responses':
      return { model: 'gpt-5', input: toOpenAIResponsesInput(messages) };
  }
}

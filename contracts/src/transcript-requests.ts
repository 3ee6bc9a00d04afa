import type { Message } from '@compaction/core';
import { toAnthropicRequest } from '@compaction/provider-anthropic';
import { toOpenAIChatMessages, toOpenAIResponsesInput } from '@compaction/provider-openai';
import type { ProviderRequestFormat } from '@compaction/testing';

/**
 * The `tools` field declaring the tools a transcript calls, in the order they first appear, each as the
 * provider declares one; no field when it calls none.
 */
function toolsField(messages: readonly Message[], declare: (name: string) => object): { tools?: object[] } {
  const names = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) if (part.type === 'tool-call') names.add(part.toolName);
  }
  return names.size === 0 ? {} : { tools: [...names].map(declare) };
}

const anyInput = { type: 'object', additionalProperties: true };

/**
 * A real transcript as the request an agent would send to each provider: its conversation, the tools it
 * calls (declared with an open schema, as the API requires tools for a history that uses them), and thinking
 * turned on when the transcript holds reasoning (a final assistant message with thinking needs it).
 */
export function requestOf(format: ProviderRequestFormat, messages: Message[]): Record<string, unknown> {
  switch (format) {
    case 'anthropic': {
      const reasons = messages.some((message) => message.content.some((part) => part.type === 'reasoning'));
      return {
        model: 'claude-sonnet-4-5',
        max_tokens: 8192,
        ...(reasons ? { thinking: { type: 'enabled', budget_tokens: 4096 } } : {}),
        ...toolsField(messages, (name) => ({ name, input_schema: anyInput })),
        ...toAnthropicRequest(messages),
      };
    }
    case 'openai-chat':
      return {
        model: 'gpt-4.1',
        ...toolsField(messages, (name) => ({ type: 'function', function: { name, parameters: anyInput } })),
        messages: toOpenAIChatMessages(messages),
      };
    case 'openai-responses':
      return {
        model: 'gpt-5',
        ...toolsField(messages, (name) => ({ type: 'function', name, parameters: anyInput, strict: false })),
        input: toOpenAIResponsesInput(messages),
      };
  }
}

import { requestFormat } from './request-format.js';

/**
 * An Anthropic Messages request (`{system?, messages, ...}`) or a bare list of its messages, converted by
 * `@compaction/provider-anthropic`. A bare list is written back as a bare list.
 */
export const anthropicFormat = requestFormat({
  name: 'anthropic',
  packageName: '@compaction/provider-anthropic',
  readerName: 'fromAnthropicRequest',
  writerName: 'toAnthropicRequest',
  listField: 'messages',
  conversationFields: ['system', 'messages'],
  holdsConversation: Array.isArray,
  expected: 'Anthropic Messages request: expected an object with a "messages" list',
  read: (fromAnthropicRequest, request) => fromAnthropicRequest(request),
  write(toAnthropicRequest, messages) {
    // The system prompt goes before the messages, as in a hand-written request.
    const { messages: converted, ...system } = toAnthropicRequest(messages) as { messages: unknown[] };
    return { ...system, messages: converted };
  },
});

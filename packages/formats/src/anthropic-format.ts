import { loadAnthropicConverters } from './load-converters.js';
import { requestFormat } from './request-format.js';

/**
 * An Anthropic Messages request (`{system?, messages, ...}`) or a bare list of its messages, converted by
 * `@compaction/provider-anthropic`. A bare list is written back as a bare list.
 */
export const anthropicFormat = requestFormat({
  name: 'anthropic',
  listField: 'messages',
  conversationFields: ['system', 'messages'],
  holdsConversation: Array.isArray,
  expected: 'Anthropic Messages request: expected an object with a "messages" list',
  async converters() {
    const { fromAnthropicRequest, toAnthropicRequest } = await loadAnthropicConverters();
    return {
      // Plain JSON from the input: the converter checks its shape field by field.
      read: (fields) => fromAnthropicRequest(fields),
      write(messages) {
        // The system prompt goes before the messages, as in a hand-written request.
        const { messages: converted, ...system } = toAnthropicRequest([...messages]);
        return { ...system, messages: converted };
      },
    };
  },
});

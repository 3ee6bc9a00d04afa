import { loadOpenAIConverters } from './load-converters.js';
import { requestFormat } from './request-format.js';

/**
 * An OpenAI Chat Completions request (`{messages, ...}`) or a bare list of Chat messages, converted by
 * `@compaction/provider-openai`. A bare list is written back as a bare list.
 */
export const openAIChatFormat = requestFormat({
  name: 'openai-chat',
  listField: 'messages',
  conversationFields: ['messages'],
  holdsConversation: Array.isArray,
  expected: 'OpenAI Chat Completions request: expected an object with a "messages" list',
  async converters() {
    const { fromOpenAIChatMessages, toOpenAIChatMessages } = await loadOpenAIConverters();
    return {
      // Plain JSON from the input: the converter checks its shape field by field.
      read: (fields) => fromOpenAIChatMessages(fields.messages as ReadonlyArray<{ readonly role: string }>),
      write: (messages) => ({ messages: toOpenAIChatMessages([...messages]) }),
    };
  },
  // A conversion from another format has no request around it: a bare list, as Chat messages are sent.
  bareListWhenConverted: true,
});

import { requestFormat } from './request-format.js';

/**
 * An OpenAI Chat Completions request (`{messages, ...}`) or a bare list of Chat messages, converted by
 * `@compaction/provider-openai`. A bare list is written back as a bare list.
 */
export const openAIChatFormat = requestFormat({
  name: 'openai-chat',
  packageName: '@compaction/provider-openai',
  readerName: 'fromOpenAIChatMessages',
  writerName: 'toOpenAIChatMessages',
  listField: 'messages',
  conversationFields: ['messages'],
  holdsConversation: Array.isArray,
  expected: 'OpenAI Chat Completions request: expected an object with a "messages" list',
  read: (fromOpenAIChatMessages, request) => fromOpenAIChatMessages(request.messages),
  write: (toOpenAIChatMessages, messages) => ({ messages: toOpenAIChatMessages(messages) }),
  // A conversion from another format has no request around it: a bare list, as Chat messages are sent.
  bareListWhenConverted: true,
});

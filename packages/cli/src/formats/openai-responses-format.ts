import { requestFormat } from './request-format.js';

/**
 * An OpenAI Responses request (`{input, instructions?, ...}`) or a bare list of input items, converted by
 * `@compaction/provider-openai`. A bare list is written back as a bare list.
 */
export const openAIResponsesFormat = requestFormat({
  name: 'openai-responses',
  packageName: '@compaction/provider-openai',
  readerName: 'fromOpenAIResponsesInput',
  writerName: 'toOpenAIResponsesInput',
  listField: 'input',
  conversationFields: ['input'],
  holdsConversation: (input) => typeof input === 'string' || Array.isArray(input),
  expected: 'OpenAI Responses request: expected an object with an "input" list or string',
  read: (fromOpenAIResponsesInput, request) => fromOpenAIResponsesInput(request.input),
  write: (toOpenAIResponsesInput, messages) => ({ input: toOpenAIResponsesInput(messages) }),
});

import { loadOpenAIConverters } from './load-converters.js';
import { requestFormat } from './request-format.js';

/**
 * An OpenAI Responses request (`{input, instructions?, ...}`) or a bare list of input items, converted by
 * `@compaction/provider-openai`. A bare list is written back as a bare list.
 */
export const openAIResponsesFormat = requestFormat({
  name: 'openai-responses',
  listField: 'input',
  conversationFields: ['input'],
  holdsConversation: (input) => typeof input === 'string' || Array.isArray(input),
  expected: 'OpenAI Responses request: expected an object with an "input" list or string',
  async converters() {
    const { fromOpenAIResponsesInput, toOpenAIResponsesInput, storedContextFields } =
      await loadOpenAIConverters();
    return {
      // Plain JSON from the input: the converter checks its shape field by field.
      read: (fields) => fromOpenAIResponsesInput(fields.input as string | ReadonlyArray<object>),
      write: (messages) => ({ input: toOpenAIResponsesInput([...messages]) }),
      storedContext: (request) => storedContextFields(request)[0],
    };
  },
});

import { finalAnswer, type ScriptedFormat, stepText } from './scripted-server.js';

/**
 * The scripted model as Chat Completions (`POST /v1/chat/completions`): cached tokens included in
 * `prompt_tokens`, as the API does, and its `context_length_exceeded` refusal.
 */
export const scriptedOpenAI: ScriptedFormat = {
  input: (body) => [body.messages, body.tools],
  refusal: (counted, contextWindow) => ({
    error: {
      message: `This model's maximum context length is ${contextWindow} tokens. However, your messages resulted in ${counted} tokens. Please reduce the length of the messages.`,
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    },
  }),
  reply(answer, step, promptTokens, body) {
    const toolCall = step && {
      id: `call_${String(answer).padStart(2, '0')}`,
      type: 'function',
      function: {
        name: step.tool,
        arguments: JSON.stringify(step.path === undefined ? {} : { path: step.path }),
      },
    };
    const message = {
      role: 'assistant',
      content: step === undefined ? finalAnswer : stepText(step),
      refusal: null,
      annotations: [],
      ...(toolCall === undefined ? {} : { tool_calls: [toolCall] }),
    };
    return {
      id: `chatcmpl-${answer}`,
      object: 'chat.completion',
      created: 1_800_000_000,
      model: String(body.model),
      choices: [
        { index: 0, finish_reason: step === undefined ? 'stop' : 'tool_calls', logprobs: null, message },
      ],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: 30,
        total_tokens: promptTokens + 30,
        prompt_tokens_details: { cached_tokens: Math.floor(promptTokens * 0.8) },
      },
    };
  },
};

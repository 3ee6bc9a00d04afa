import { finalAnswer, type ScriptedFormat, stepText } from './scripted-server.js';

/**
 * The scripted model as the Messages API (`POST /v1/messages`): usage mostly as prompt-cache reads, as a
 * cached agent loop would see, and the API's `prompt is too long` refusal.
 */
export const scriptedAnthropic: ScriptedFormat = {
  input: (body) => [body.system, body.messages, body.tools],
  refusal: (counted, contextWindow) => ({
    type: 'error',
    error: {
      type: 'invalid_request_error',
      message: `prompt is too long: ${counted} tokens > ${contextWindow} maximum`,
    },
  }),
  reply(answer, step, inputTokens, body) {
    const toolUse = step && {
      type: 'tool_use',
      id: `toolu_${String(answer).padStart(2, '0')}`,
      name: step.tool,
      input: step.path === undefined ? {} : { path: step.path },
    };
    const cacheRead = Math.floor(inputTokens * 0.8);
    return {
      id: `msg_${answer}`,
      type: 'message',
      role: 'assistant',
      model: String(body.model),
      content:
        step === undefined
          ? [{ type: 'text', text: finalAnswer }]
          : [{ type: 'text', text: stepText(step) }, toolUse],
      stop_reason: step === undefined ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: inputTokens - cacheRead, cache_read_input_tokens: cacheRead, output_tokens: 30 },
    };
  },
};

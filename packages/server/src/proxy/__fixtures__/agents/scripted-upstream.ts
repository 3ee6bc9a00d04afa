import { createFastEstimator } from '@compaction/core';
import type { ProviderRequestFormat } from '@compaction/testing';
import type { RecordedRequest, Reply } from '@compaction/testing/loopback-server';

const estimator = createFastEstimator();

/** Input tokens of a request: everything that takes tokens, as the live run's scripted provider counts them. */
export function countRequest(format: ProviderRequestFormat, body: Record<string, unknown>): number {
  const counted =
    format === 'anthropic'
      ? { system: body.system, tools: body.tools, messages: body.messages }
      : format === 'openai-responses'
        ? { instructions: body.instructions, tools: body.tools, input: body.input }
        : { tools: body.tools, messages: body.messages };
  return estimator.countText(JSON.stringify(counted));
}

const event = (name: string | undefined, data: unknown) =>
  `${name === undefined ? '' : `event: ${name}\n`}data: ${JSON.stringify(data)}\n\n`;

/** A short text answer in the format, streamed when the request asks, reporting the input tokens it counted. */
function answer(format: ProviderRequestFormat, streamed: boolean, inputTokens: number): Reply {
  if (format === 'anthropic') {
    const message = {
      id: 'msg_replay',
      type: 'message',
      role: 'assistant',
      model: 'replay',
      content: [{ type: 'text', text: 'Next.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: 2 },
    };
    if (!streamed) return { body: message };
    return {
      chunks: [
        event('message_start', {
          type: 'message_start',
          message: { ...message, content: [], stop_reason: null },
        }),
        event('content_block_start', {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'text', text: '' },
        }),
        event('content_block_delta', {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: 'Next.' },
        }),
        event('content_block_stop', { type: 'content_block_stop', index: 0 }),
        event('message_delta', {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn' },
          usage: { output_tokens: 2 },
        }),
        event('message_stop', { type: 'message_stop' }),
      ],
    };
  }
  if (format === 'openai-chat') {
    const usage = { prompt_tokens: inputTokens, completion_tokens: 2, total_tokens: inputTokens + 2 };
    if (!streamed) {
      return {
        body: {
          id: 'chatcmpl-replay',
          object: 'chat.completion',
          model: 'replay',
          choices: [{ index: 0, message: { role: 'assistant', content: 'Next.' }, finish_reason: 'stop' }],
          usage,
        },
      };
    }
    const base = { id: 'chatcmpl-replay', object: 'chat.completion.chunk', model: 'replay' };
    return {
      chunks: [
        event(undefined, {
          ...base,
          choices: [{ index: 0, delta: { role: 'assistant', content: 'Next.' }, finish_reason: null }],
        }),
        event(undefined, { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
        event(undefined, { ...base, choices: [], usage }),
        'data: [DONE]\n\n',
      ],
    };
  }
  const output = [
    {
      id: 'msg_replay',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Next.', annotations: [] }],
    },
  ];
  const response = (status: string) => ({
    id: 'resp_replay',
    object: 'response',
    status,
    model: 'replay',
    output: status === 'completed' ? output : [],
    usage:
      status === 'completed'
        ? { input_tokens: inputTokens, output_tokens: 2, total_tokens: inputTokens + 2 }
        : null,
  });
  if (!streamed) return { body: response('completed') };
  return {
    chunks: [
      event('response.created', {
        type: 'response.created',
        sequence_number: 0,
        response: response('in_progress'),
      }),
      event('response.completed', {
        type: 'response.completed',
        sequence_number: 1,
        response: response('completed'),
      }),
    ],
  };
}

const responsesOverflowError = {
  code: 'context_length_exceeded',
  message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
};

/** The provider's own refusal of a request over its limit, as each API sends it. */
function refusal(format: ProviderRequestFormat, streamed: boolean, tokens: number, maximum: number): Reply {
  if (format === 'anthropic') {
    return {
      status: 400,
      body: {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: `prompt is too long: ${tokens} tokens > ${maximum} maximum`,
        },
      },
    };
  }
  if (format === 'openai-chat') {
    return {
      status: 400,
      body: {
        error: {
          message:
            `This model's maximum context length is ${maximum} tokens. However, your messages resulted in ` +
            `${tokens} tokens. Please reduce the length of the messages.`,
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      },
    };
  }
  if (!streamed) {
    return {
      status: 400,
      body: { error: { ...responsesOverflowError, type: 'invalid_request_error', param: 'input' } },
    };
  }
  const created = {
    id: 'resp_replay',
    object: 'response',
    status: 'in_progress',
    model: 'replay',
    output: [],
  };
  return {
    chunks: [
      event('response.created', { type: 'response.created', sequence_number: 0, response: created }),
      event('response.failed', {
        type: 'response.failed',
        sequence_number: 1,
        response: { ...created, status: 'failed', error: responsesOverflowError },
      }),
    ],
  };
}

/** What the scripted upstream saw: each request with the tokens it counted and whether it refused it. */
export interface UpstreamExchange {
  request: RecordedRequest;
  inputTokens: number;
  refused: boolean;
}

/**
 * The upstream's handler: answers each request in its format, and refuses one whose input tokens pass `limit`
 * with the provider's own overflow error.
 */
export function scriptedUpstream(
  format: ProviderRequestFormat,
  limit: number,
  exchanges: UpstreamExchange[],
): (request: RecordedRequest) => Reply {
  return (request) => {
    const body = request.body as Record<string, unknown>;
    const inputTokens = countRequest(format, body);
    const refused = inputTokens > limit;
    exchanges.push({ request, inputTokens, refused });
    const streamed = body.stream === true;
    return refused ? refusal(format, streamed, inputTokens, limit) : answer(format, streamed, inputTokens);
  };
}

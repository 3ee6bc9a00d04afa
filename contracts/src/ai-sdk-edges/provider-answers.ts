import type { Reply } from '@compaction/testing/loopback-server';
import type { AiSdkTarget } from '../ai-sdk/ai-sdk-target.js';

/**
 * Answers of each provider in its wire format, streamed or not: a text, a tool call, and a refusal.
 *
 * What each provider answers to a request longer than the model's context window, as its API words it: an
 * HTTP 400 before any output, or (for a stream) a 200 whose first event is the error. The messages are the
 * providers' own: Anthropic's "prompt is too long", Chat Completions' "maximum context length", and the
 * Responses API's "exceeds the context window" with the code `context_length_exceeded`.
 */
export function overflowRefusal(target: AiSdkTarget, inStream: boolean): Reply {
  switch (target) {
    case 'anthropic': {
      const error = {
        type: 'invalid_request_error',
        message: 'prompt is too long: 214312 tokens > 200000 maximum',
      };
      return inStream
        ? stream([`event: error\ndata: ${JSON.stringify({ type: 'error', error })}\n\n`])
        : { status: 400, body: { type: 'error', error } };
    }
    case 'openai-chat': {
      const error = {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      };
      return inStream ? stream([`data: ${JSON.stringify({ error })}\n\n`]) : { status: 400, body: { error } };
    }
    case 'openai-responses': {
      const error = {
        code: 'context_length_exceeded',
        message:
          'Your input exceeds the context window of this model. Please adjust your input and try again.',
      };
      if (!inStream) {
        return { status: 400, body: { error: { ...error, type: 'invalid_request_error', param: 'input' } } };
      }
      const response = { ...responsesEnvelope('resp_refused', 'in_progress'), output: [] };
      return stream([
        `event: response.created\ndata: ${JSON.stringify({ type: 'response.created', sequence_number: 0, response })}\n\n`,
        `event: response.failed\ndata: ${JSON.stringify({
          type: 'response.failed',
          sequence_number: 1,
          response: { ...response, status: 'failed', error },
        })}\n\n`,
      ]);
    }
  }
}

/** A streamed text answer of each provider, with the input tokens it reports. */
export function streamedText(target: AiSdkTarget, text: string, inputTokens: number): Reply {
  switch (target) {
    case 'anthropic':
      return stream(
        [
          {
            type: 'message_start',
            message: {
              id: 'msg_stream',
              type: 'message',
              role: 'assistant',
              model: 'claude-sonnet-4-5',
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: { input_tokens: inputTokens, output_tokens: 1 },
            },
          },
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
          { type: 'content_block_stop', index: 0 },
          {
            type: 'message_delta',
            delta: { stop_reason: 'end_turn', stop_sequence: null },
            usage: { output_tokens: 8 },
          },
          { type: 'message_stop' },
        ].map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`),
      );
    case 'openai-chat': {
      const chunk = (delta: unknown, finish: string | null, usage?: unknown) => ({
        id: 'chatcmpl-stream',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: 'gpt-4.1',
        choices: [{ index: 0, delta, finish_reason: finish }],
        ...(usage === undefined ? {} : { usage }),
      });
      return stream([
        `data: ${JSON.stringify(chunk({ role: 'assistant', content: text }, null))}\n\n`,
        `data: ${JSON.stringify(
          chunk({}, 'stop', {
            prompt_tokens: inputTokens,
            completion_tokens: 8,
            total_tokens: inputTokens + 8,
          }),
        )}\n\n`,
        'data: [DONE]\n\n',
      ]);
    }
    case 'openai-responses': {
      const item = {
        type: 'message',
        id: 'msg_stream',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text, annotations: [] }],
      };
      const events = [
        {
          type: 'response.created',
          response: { ...responsesEnvelope('resp_stream', 'in_progress'), output: [] },
        },
        {
          type: 'response.output_item.added',
          output_index: 0,
          item: { ...item, status: 'in_progress', content: [] },
        },
        {
          type: 'response.output_text.delta',
          item_id: 'msg_stream',
          output_index: 0,
          content_index: 0,
          delta: text,
        },
        { type: 'response.output_item.done', output_index: 0, item },
        {
          type: 'response.completed',
          response: {
            ...responsesEnvelope('resp_stream', 'completed'),
            output: [item],
            usage: {
              input_tokens: inputTokens,
              input_tokens_details: { cached_tokens: 0 },
              output_tokens: 8,
              output_tokens_details: { reasoning_tokens: 0 },
              total_tokens: inputTokens + 8,
            },
          },
        },
      ];
      return stream(
        events.map(
          (event, index) =>
            `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: index })}\n\n`,
        ),
      );
    }
  }
}

function responsesEnvelope(id: string, status: string) {
  return {
    id,
    object: 'response',
    created_at: 1_700_000_000,
    model: 'gpt-5',
    status,
    incomplete_details: null,
  };
}

function stream(chunks: string[]): Reply {
  return { chunks, headers: { 'content-type': 'text/event-stream' } };
}

/** A text answer of each provider, not streamed. */
export function jsonText(target: AiSdkTarget, text: string, inputTokens: number): Reply {
  switch (target) {
    case 'anthropic':
      return {
        body: {
          id: 'msg_text',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: inputTokens, output_tokens: 8 },
        },
      };
    case 'openai-chat':
      return {
        body: {
          id: 'chatcmpl-text',
          object: 'chat.completion',
          created: 1_700_000_000,
          model: 'gpt-4.1',
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage: { prompt_tokens: inputTokens, completion_tokens: 8, total_tokens: inputTokens + 8 },
        },
      };
    case 'openai-responses':
      return {
        body: {
          ...responsesEnvelope('resp_text', 'completed'),
          output: [
            {
              type: 'message',
              id: 'msg_text',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text, annotations: [] }],
            },
          ],
          usage: {
            input_tokens: inputTokens,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: 8,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: inputTokens + 8,
          },
        },
      };
  }
}

const loopInput = JSON.stringify({ path: 'src/index.ts' });

/**
 * A streamed call of the `read_file` tool of each provider, with thinking (Anthropic, when `thinking`) or
 * encrypted reasoning (Responses) first, as the loopback provider answers the first step of a call.
 */
export function streamedToolCall(target: AiSdkTarget, thinking: boolean, inputTokens: number): Reply {
  switch (target) {
    case 'anthropic':
      return anthropicStreamedToolCall(thinking, inputTokens);
    case 'openai-chat':
      return chatStreamedToolCall(inputTokens);
    case 'openai-responses':
      return responsesStreamedToolCall(inputTokens);
  }
}

/** Anthropic's stream: the thinking block (when asked for) and the `tool_use` block, indexed in order. */
function anthropicStreamedToolCall(thinking: boolean, inputTokens: number): Reply {
  const blocks = [
    ...(thinking
      ? [
          {
            type: 'content_block_start',
            content_block: { type: 'thinking', thinking: '', signature: '' },
          },
          {
            type: 'content_block_delta',
            delta: { type: 'thinking_delta', thinking: 'Read the file first.' },
          },
          {
            type: 'content_block_delta',
            delta: { type: 'signature_delta', signature: 'loop-signature' },
          },
          { type: 'content_block_stop' },
        ]
      : []),
    {
      type: 'content_block_start',
      content_block: { type: 'tool_use', id: 'toolu_loop_0001', name: 'read_file', input: {} },
    },
    { type: 'content_block_delta', delta: { type: 'input_json_delta', partial_json: loopInput } },
    { type: 'content_block_stop' },
  ];
  let index = -1;
  const indexed = blocks.map((event) => {
    if (event.type === 'content_block_start') index++;
    return { ...event, index };
  });
  return stream(
    [
      {
        type: 'message_start',
        message: {
          id: 'msg_stream_tool',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: inputTokens, output_tokens: 1 },
        },
      },
      ...indexed,
      {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { output_tokens: 20 },
      },
      { type: 'message_stop' },
    ].map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`),
  );
}

/** Chat Completions' stream: the call's name, then its arguments, then the finish reason with the usage. */
function chatStreamedToolCall(inputTokens: number): Reply {
  const chunk = (delta: unknown, finish: string | null, usage?: unknown) => ({
    id: 'chatcmpl-stream-tool',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'gpt-4.1',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(usage === undefined ? {} : { usage }),
  });
  const call = {
    index: 0,
    id: 'call_loop_0001',
    type: 'function',
    function: { name: 'read_file', arguments: '' },
  };
  return stream([
    `data: ${JSON.stringify(chunk({ role: 'assistant', content: null, tool_calls: [call] }, null))}\n\n`,
    `data: ${JSON.stringify(chunk({ tool_calls: [{ index: 0, function: { arguments: loopInput } }] }, null))}\n\n`,
    `data: ${JSON.stringify(
      chunk({}, 'tool_calls', {
        prompt_tokens: inputTokens,
        completion_tokens: 20,
        total_tokens: inputTokens + 20,
      }),
    )}\n\n`,
    'data: [DONE]\n\n',
  ]);
}

/** The Responses stream: the encrypted reasoning item, then the function call, then the completed response. */
function responsesStreamedToolCall(inputTokens: number): Reply {
  const reasoning = {
    type: 'reasoning',
    id: 'rs_loop_0001',
    encrypted_content: 'loop-encrypted-reasoning',
    summary: [{ type: 'summary_text', text: 'Read the file first.' }],
  };
  const call = {
    type: 'function_call',
    id: 'fc_loop_0001',
    call_id: 'call_loop_0001',
    name: 'read_file',
    arguments: loopInput,
    status: 'completed',
  };
  const events = [
    {
      type: 'response.created',
      response: { ...responsesEnvelope('resp_stream_tool', 'in_progress'), output: [] },
    },
    { type: 'response.output_item.added', output_index: 0, item: { ...reasoning, summary: [] } },
    { type: 'response.output_item.done', output_index: 0, item: reasoning },
    {
      type: 'response.output_item.added',
      output_index: 1,
      item: { ...call, arguments: '', status: 'in_progress' },
    },
    {
      type: 'response.function_call_arguments.delta',
      item_id: 'fc_loop_0001',
      output_index: 1,
      delta: loopInput,
    },
    { type: 'response.output_item.done', output_index: 1, item: call },
    {
      type: 'response.completed',
      response: {
        ...responsesEnvelope('resp_stream_tool', 'completed'),
        output: [reasoning, call],
        usage: {
          input_tokens: inputTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 20,
          output_tokens_details: { reasoning_tokens: 10 },
          total_tokens: inputTokens + 20,
        },
      },
    },
  ];
  return stream(
    events.map(
      (event, index) =>
        `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: index })}\n\n`,
    ),
  );
}

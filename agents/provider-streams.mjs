// How each provider's API answers, streamed and not, as the real ones do: the events, their order and their
// fields. An answer is { text, thinking, call: { id, name, input } | undefined, inputTokens, model }.

/** One server-sent event. */
const event = (name, data) =>
  `${name === undefined ? '' : `event: ${name}\n`}data: ${JSON.stringify(data)}\n\n`;

/** Splits text into a few pieces, so a client reads deltas as it would from a real model. */
function pieces(text, count = 3) {
  const size = Math.max(1, Math.ceil(text.length / count));
  const result = [];
  for (let start = 0; start < text.length; start += size) result.push(text.slice(start, start + size));
  return result.length === 0 ? [''] : result;
}

/** An opaque signature, as Anthropic and OpenAI return for thinking and encrypted reasoning. */
const signatureOf = (text) => Buffer.from(`scripted:${text}`).toString('base64');

const outputTokens = (answer) =>
  Math.ceil(
    ((answer.text ?? '').length + (answer.thinking ?? '').length + JSON.stringify(answer.call ?? {}).length) /
      4,
  );

/** Anthropic Messages: the content blocks of an answer. */
function anthropicBlocks(answer) {
  const blocks = [];
  if (answer.thinking !== undefined) {
    blocks.push({ type: 'thinking', thinking: answer.thinking, signature: signatureOf(answer.thinking) });
  }
  if (answer.text !== undefined) blocks.push({ type: 'text', text: answer.text });
  if (answer.call !== undefined) {
    blocks.push({ type: 'tool_use', id: answer.call.id, name: answer.call.name, input: answer.call.input });
  }
  return blocks;
}

export function anthropicMessage(answer) {
  return {
    id: `msg_${answer.id}`,
    type: 'message',
    role: 'assistant',
    model: answer.model,
    content: anthropicBlocks(answer),
    stop_reason: answer.call === undefined ? 'end_turn' : 'tool_use',
    stop_sequence: null,
    usage: {
      input_tokens: answer.inputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: outputTokens(answer),
    },
  };
}

export function anthropicStream(answer) {
  const message = anthropicMessage(answer);
  const chunks = [
    event('message_start', {
      type: 'message_start',
      message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } },
    }),
  ];
  message.content.forEach((block, index) => {
    if (block.type === 'thinking') {
      chunks.push(
        event('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        }),
      );
      for (const piece of pieces(block.thinking)) {
        chunks.push(
          event('content_block_delta', {
            type: 'content_block_delta',
            index,
            delta: { type: 'thinking_delta', thinking: piece },
          }),
        );
      }
      chunks.push(
        event('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'signature_delta', signature: block.signature },
        }),
      );
    } else if (block.type === 'text') {
      chunks.push(
        event('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'text', text: '' },
        }),
      );
      for (const piece of pieces(block.text)) {
        chunks.push(
          event('content_block_delta', {
            type: 'content_block_delta',
            index,
            delta: { type: 'text_delta', text: piece },
          }),
        );
      }
    } else {
      chunks.push(
        event('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        }),
      );
      for (const piece of pieces(JSON.stringify(block.input))) {
        chunks.push(
          event('content_block_delta', {
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: piece },
          }),
        );
      }
    }
    chunks.push(event('content_block_stop', { type: 'content_block_stop', index }));
  });
  chunks.push(
    event('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: message.usage.output_tokens },
    }),
    event('message_stop', { type: 'message_stop' }),
  );
  return chunks;
}

/** Anthropic's refusal of a request over the model's limit, word for word. */
export function anthropicOverflow(tokens, maximum) {
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

/** OpenAI Responses: the output items of an answer. */
function responsesOutput(answer) {
  const output = [];
  if (answer.thinking !== undefined) {
    output.push({
      id: `rs_${answer.id}`,
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: answer.thinking }],
      encrypted_content: signatureOf(answer.thinking),
    });
  }
  if (answer.text !== undefined) {
    output.push({
      id: `msg_${answer.id}`,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: answer.text, annotations: [] }],
    });
  }
  if (answer.call !== undefined) {
    output.push({
      id: `fc_${answer.id}`,
      type: 'function_call',
      status: 'completed',
      call_id: answer.call.id,
      name: answer.call.name,
      arguments: JSON.stringify(answer.call.input),
    });
  }
  return output;
}

function responsesObject(answer, status, output) {
  const reasoningTokens = Math.ceil((answer.thinking ?? '').length / 4);
  return {
    id: `resp_${answer.id}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    error: null,
    incomplete_details: null,
    model: answer.model,
    output,
    parallel_tool_calls: true,
    usage:
      status === 'completed'
        ? {
            input_tokens: answer.inputTokens,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: outputTokens(answer),
            output_tokens_details: { reasoning_tokens: reasoningTokens },
            total_tokens: answer.inputTokens + outputTokens(answer),
          }
        : null,
  };
}

export const responsesBody = (answer) => responsesObject(answer, 'completed', responsesOutput(answer));

export function responsesStream(answer) {
  let sequence = 0;
  const send = (data) => event(data.type, { ...data, sequence_number: sequence++ });
  const chunks = [
    send({ type: 'response.created', response: responsesObject(answer, 'in_progress', []) }),
    send({ type: 'response.in_progress', response: responsesObject(answer, 'in_progress', []) }),
  ];
  const output = responsesOutput(answer);
  output.forEach((item, outputIndex) => {
    const itemEvents =
      item.type === 'reasoning'
        ? reasoningEvents
        : item.type === 'message'
          ? messageEvents
          : functionCallEvents;
    chunks.push(...itemEvents(item, outputIndex, send));
    chunks.push(send({ type: 'response.output_item.done', output_index: outputIndex, item }));
  });
  chunks.push(send({ type: 'response.completed', response: responsesObject(answer, 'completed', output) }));
  return chunks;
}

/** A reasoning item's events: added, then its summary part and text in pieces, each done. */
function reasoningEvents(item, outputIndex, send) {
  const chunks = [];
  chunks.push(
    send({
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: { ...item, summary: [] },
    }),
    send({
      type: 'response.reasoning_summary_part.added',
      item_id: item.id,
      output_index: outputIndex,
      summary_index: 0,
      part: { type: 'summary_text', text: '' },
    }),
  );
  for (const piece of pieces(item.summary[0].text)) {
    chunks.push(
      send({
        type: 'response.reasoning_summary_text.delta',
        item_id: item.id,
        output_index: outputIndex,
        summary_index: 0,
        delta: piece,
      }),
    );
  }
  chunks.push(
    send({
      type: 'response.reasoning_summary_text.done',
      item_id: item.id,
      output_index: outputIndex,
      summary_index: 0,
      text: item.summary[0].text,
    }),
    send({
      type: 'response.reasoning_summary_part.done',
      item_id: item.id,
      output_index: outputIndex,
      summary_index: 0,
      part: item.summary[0],
    }),
  );
  return chunks;
}

/** A message item's events: added, then its text part in pieces, done. */
function messageEvents(item, outputIndex, send) {
  const chunks = [];
  const text = item.content[0].text;
  chunks.push(
    send({
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: { ...item, status: 'in_progress', content: [] },
    }),
    send({
      type: 'response.content_part.added',
      item_id: item.id,
      output_index: outputIndex,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    }),
  );
  for (const piece of pieces(text)) {
    chunks.push(
      send({
        type: 'response.output_text.delta',
        item_id: item.id,
        output_index: outputIndex,
        content_index: 0,
        delta: piece,
      }),
    );
  }
  chunks.push(
    send({
      type: 'response.output_text.done',
      item_id: item.id,
      output_index: outputIndex,
      content_index: 0,
      text,
    }),
    send({
      type: 'response.content_part.done',
      item_id: item.id,
      output_index: outputIndex,
      content_index: 0,
      part: item.content[0],
    }),
  );
  return chunks;
}

/** A function call item's events: added without arguments, then its arguments in pieces, done. */
function functionCallEvents(item, outputIndex, send) {
  const chunks = [];
  chunks.push(
    send({
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: { ...item, status: 'in_progress', arguments: '' },
    }),
  );
  for (const piece of pieces(item.arguments)) {
    chunks.push(
      send({
        type: 'response.function_call_arguments.delta',
        item_id: item.id,
        output_index: outputIndex,
        delta: piece,
      }),
    );
  }
  chunks.push(
    send({
      type: 'response.function_call_arguments.done',
      item_id: item.id,
      output_index: outputIndex,
      arguments: item.arguments,
    }),
  );
  return chunks;
}

const responsesOverflowError = {
  code: 'context_length_exceeded',
  message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
};

/**
 * The Responses API's refusal of a request over the model's limit: a streamed request gets 200 and a stream
 * whose first event after `response.created` is `response.failed`; a plain one gets 400.
 */
export function responsesOverflow(answer, streamed) {
  if (!streamed) {
    return {
      status: 400,
      body: { error: { ...responsesOverflowError, type: 'invalid_request_error', param: 'input' } },
    };
  }
  const failed = { ...responsesObject(answer, 'failed', []), error: responsesOverflowError };
  return {
    chunks: [
      event('response.created', {
        type: 'response.created',
        sequence_number: 0,
        response: responsesObject(answer, 'in_progress', []),
      }),
      event('response.failed', { type: 'response.failed', sequence_number: 1, response: failed }),
    ],
  };
}

/** OpenAI Chat Completions: one completion, or its chunks. */
export function chatCompletion(answer) {
  return {
    id: `chatcmpl-${answer.id}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: answer.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.text ?? null,
          ...(answer.call === undefined
            ? {}
            : {
                tool_calls: [
                  {
                    id: answer.call.id,
                    type: 'function',
                    function: { name: answer.call.name, arguments: JSON.stringify(answer.call.input) },
                  },
                ],
              }),
        },
        finish_reason: answer.call === undefined ? 'stop' : 'tool_calls',
      },
    ],
    usage: chatUsage(answer),
  };
}

const chatUsage = (answer) => ({
  prompt_tokens: answer.inputTokens,
  completion_tokens: outputTokens(answer),
  total_tokens: answer.inputTokens + outputTokens(answer),
});

export function chatStream(answer, includeUsage) {
  const base = {
    id: `chatcmpl-${answer.id}`,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: answer.model,
  };
  const chunk = (delta, finishReason = null) =>
    event(undefined, { ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] });
  const chunks = [chunk({ role: 'assistant', content: '' })];
  for (const piece of answer.text === undefined ? [] : pieces(answer.text))
    chunks.push(chunk({ content: piece }));
  if (answer.call !== undefined) {
    chunks.push(
      chunk({
        tool_calls: [
          {
            index: 0,
            id: answer.call.id,
            type: 'function',
            function: { name: answer.call.name, arguments: '' },
          },
        ],
      }),
    );
    for (const piece of pieces(JSON.stringify(answer.call.input))) {
      chunks.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
    }
  }
  chunks.push(chunk({}, answer.call === undefined ? 'stop' : 'tool_calls'));
  if (includeUsage) chunks.push(event(undefined, { ...base, choices: [], usage: chatUsage(answer) }));
  chunks.push('data: [DONE]\n\n');
  return chunks;
}

/** OpenAI's refusal of a Chat Completions request over the model's limit, word for word. */
export function chatOverflow(tokens, maximum) {
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

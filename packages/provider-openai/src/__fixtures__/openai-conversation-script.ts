import type { TokenEstimator } from '@compaction/core';
import {
  type AgentScript,
  countMessages,
  type ScriptedExchange,
  scriptAgentAnswers,
  type TestServer,
} from '@compaction/testing/loopback-server';
import { fromOpenAIChatMessages } from '../from-openai-chat-messages.js';
import { fromOpenAIResponsesInput } from '../from-openai-responses-input.js';

export { readFileOutput } from '@compaction/testing/loopback-server';

/** Prompt tokens the server reports for a Chat Completions body. */
export function chatRequestTokens(body: unknown, estimator: TokenEstimator): number {
  return countMessages(fromOpenAIChatMessages((body as { messages: [] }).messages), estimator);
}

/** Scripts the agent on `/v1/chat/completions`. Cached prompt tokens are reported as part of `prompt_tokens`. */
export function scriptChatAgent(server: TestServer, script: AgentScript): ScriptedExchange[] {
  return scriptAgentAnswers(server, script, {
    path: '/v1/chat/completions',
    count: (body) => chatRequestTokens(body, script.estimator),
    reply: ({ answer, done, calls }, inputTokens) => ({
      id: `chatcmpl-${answer}`,
      object: 'chat.completion',
      created: 1_800_000_000,
      model: 'gpt-5.4',
      choices: [
        {
          index: 0,
          finish_reason: done ? 'stop' : 'tool_calls',
          logprobs: null,
          message: {
            role: 'assistant',
            content: done ? 'All files are read; the change is ready.' : `Reading more (${answer}).`,
            refusal: null,
            annotations: [],
            ...(calls.length === 0
              ? {}
              : {
                  tool_calls: calls.map((call) => ({
                    id: call.id,
                    type: 'function',
                    function: { name: 'read_file', arguments: JSON.stringify({ path: call.path }) },
                  })),
                }),
          },
        },
      ],
      usage: {
        prompt_tokens: inputTokens,
        completion_tokens: 40,
        total_tokens: inputTokens + 40,
        prompt_tokens_details: { cached_tokens: Math.floor(inputTokens * 0.8) },
      },
    }),
    refusal: (tokens, maximum) => ({
      status: 400,
      body: {
        error: {
          message: `This model's maximum context length is ${maximum} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      },
    }),
  });
}

/** The Responses API's overflow message: it has no numbers. */
export const responsesOverflowMessage =
  'Your input exceeds the context window of this model. Please adjust your input and try again.';

/** Prompt tokens the server reports for a Responses body. */
export function responsesRequestTokens(body: unknown, estimator: TokenEstimator): number {
  return countMessages(fromOpenAIResponsesInput((body as { input: [] }).input), estimator);
}

/**
 * Scripts the agent on `/v1/responses`. Cached input tokens are part of `input_tokens`. A refusal is a
 * response that failed with `context_length_exceeded` (as the API reports it for a request it accepted).
 */
export function scriptResponsesAgent(server: TestServer, script: AgentScript): ScriptedExchange[] {
  const response = (answer: number, fields: Record<string, unknown>) => ({
    id: `resp_${answer}`,
    object: 'response',
    created_at: 1_800_000_000,
    model: 'gpt-5.4',
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    error: null,
    incomplete_details: null,
    ...fields,
  });
  return scriptAgentAnswers(server, script, {
    path: '/v1/responses',
    count: (body) => responsesRequestTokens(body, script.estimator),
    reply: ({ answer, done, calls }, inputTokens) =>
      response(answer, {
        status: 'completed',
        output: [
          {
            type: 'message',
            id: `msg_${answer}`,
            status: 'completed',
            role: 'assistant',
            content: [
              {
                type: 'output_text',
                text: done ? 'All files are read; the change is ready.' : `Reading more (${answer}).`,
                annotations: [],
              },
            ],
          },
          ...calls.map((call) => ({
            type: 'function_call',
            id: `fc_${call.id}`,
            call_id: call.id,
            name: 'read_file',
            arguments: JSON.stringify({ path: call.path }),
            status: 'completed',
          })),
        ],
        usage: {
          input_tokens: inputTokens,
          input_tokens_details: { cached_tokens: Math.floor(inputTokens * 0.8) },
          output_tokens: 40,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: inputTokens + 40,
        },
      }),
    refusal: (_tokens, _maximum, answer) => ({
      status: 200,
      body: response(answer, {
        status: 'failed',
        output: [],
        error: { code: 'context_length_exceeded', message: responsesOverflowMessage },
      }),
    }),
  });
}

/**
 * Problems that make a Responses `input` invalid: a `function_call_output` that answers no earlier
 * unanswered call, a call left unanswered before the next user or system message or at the end. Empty when
 * valid.
 */
export function responsesRequestProblems(body: unknown): string[] {
  const problems: string[] = [];
  const input = (body as { input: Array<Record<string, unknown>> }).input;
  if (!Array.isArray(input) || input.length === 0) return ['no input items'];
  const open = new Set<string>();
  input.forEach((item, index) => {
    if (item.type === 'function_call') open.add(item.call_id as string);
    else if (item.type === 'function_call_output') {
      if (!open.delete(item.call_id as string)) problems.push(`item ${index}: output answers no open call`);
    } else if (item.role === 'user' || item.role === 'system' || item.role === 'developer') {
      for (const id of open) problems.push(`item ${index}: call ${id} has no output`);
      open.clear();
    }
  });
  for (const id of open) problems.push(`call ${id} has no output at the end`);
  return problems;
}

/**
 * Problems that make a Chat Completions request invalid: no messages, a tool message that does not answer a
 * call of the assistant message before its run of tool messages, a call left unanswered before the next
 * non-tool message, an assistant message with neither content nor calls. Empty when valid.
 */
export function chatRequestProblems(body: unknown): string[] {
  const problems: string[] = [];
  const messages = (body as { messages: Array<Record<string, unknown>> }).messages;
  if (messages.length === 0) problems.push('no messages');
  let open = new Set<string>();
  let answerable = new Set<string>();
  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      const id = message.tool_call_id as string;
      if (!answerable.has(id)) problems.push(`message ${index}: result ${id} answers no call`);
      answerable.delete(id);
      open.delete(id);
      return;
    }
    for (const id of open) problems.push(`message ${index}: call ${id} has no result`);
    const calls = ((message.tool_calls as Array<{ id: string }> | undefined) ?? []).map((call) => call.id);
    if (message.role === 'assistant' && calls.length === 0 && (message.content ?? null) === null) {
      problems.push(`message ${index}: an empty assistant message`);
    }
    open = new Set(calls);
    answerable = new Set(calls);
  });
  return problems;
}

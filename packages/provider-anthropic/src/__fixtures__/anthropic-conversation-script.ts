import type { TokenEstimator } from '@compaction/core';
import {
  type AgentScript,
  countMessages,
  type ScriptedExchange,
  scriptAgentAnswers,
  type TestServer,
} from '@compaction/testing/loopback-server';
import { fromAnthropicRequest } from '../from-anthropic-request.js';

export { readFileOutput } from '@compaction/testing/loopback-server';

/** Tokens the server reports for a request body: the estimate of its conversation in core messages. */
export function requestTokens(body: unknown, estimator: TokenEstimator): number {
  return countMessages(fromAnthropicRequest(body as { messages: [] }), estimator);
}

/**
 * Scripts a tool-using model on the server's `/v1/messages` (see `scriptAgentAnswers`). Most input tokens
 * are reported as cache reads and writes, as a cached agent loop would see; a refusal is the API's "prompt is
 * too long" 400. Returns the exchanges, in order.
 */
export function scriptAgent(server: TestServer, script: AgentScript): ScriptedExchange[] {
  return scriptAgentAnswers(server, script, {
    path: '/v1/messages',
    callIdPrefix: 'toolu',
    count: (body) => requestTokens(body, script.estimator),
    reply: ({ answer, done, calls }, inputTokens) => {
      const cacheRead = Math.floor(inputTokens * 0.7);
      const cacheWrite = Math.floor(inputTokens * 0.2);
      return {
        id: `msg_${answer}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-5-5',
        content: [
          {
            type: 'text',
            text: done ? 'All files are read; the change is ready.' : `Reading more (${answer}).`,
          },
          ...calls.map((call) => ({
            type: 'tool_use',
            id: call.id,
            name: 'read_file',
            input: { path: call.path },
          })),
        ],
        stop_reason: done ? 'end_turn' : 'tool_use',
        stop_sequence: null,
        usage: {
          input_tokens: inputTokens - cacheRead - cacheWrite,
          cache_read_input_tokens: cacheRead,
          cache_creation_input_tokens: cacheWrite,
          output_tokens: 40,
        },
      };
    },
    refusal: (tokens, maximum) => ({
      status: 400,
      body: {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: `prompt is too long: ${tokens} tokens > ${maximum} maximum`,
        },
      },
    }),
  });
}

/**
 * Problems that make a Messages API request invalid: a first turn that is not the user's, turns that do
 * not alternate, empty turns, tool results that do not answer a call of the assistant turn just before
 * (or do not come first in their turn), calls left unanswered before the next turn. Empty when valid.
 */
export function anthropicRequestProblems(body: unknown): string[] {
  const problems: string[] = [];
  const request = body as {
    system?: unknown;
    messages: Array<{ role: string; content: string | Array<Record<string, unknown>> }>;
  };
  if (request.system !== undefined && typeof request.system !== 'string' && !Array.isArray(request.system)) {
    problems.push('system is neither a string nor blocks');
  }
  if (request.messages.length === 0) problems.push('no messages');
  if (request.messages[0]?.role !== 'user') problems.push('the first turn is not a user turn');
  request.messages.forEach((message, index) => {
    const previous = request.messages[index - 1];
    if (previous !== undefined && previous.role === message.role)
      problems.push(`turn ${index} repeats a role`);
    const blocks = typeof message.content === 'string' ? [] : message.content;
    if (typeof message.content !== 'string' && blocks.length === 0) problems.push(`turn ${index} is empty`);
    const previousCalls =
      previous === undefined || typeof previous.content === 'string'
        ? []
        : previous.content.filter((block) => block.type === 'tool_use').map((block) => block.id);
    const results = blocks.filter((block) => block.type === 'tool_result').map((block) => block.tool_use_id);
    const firstOther = blocks.findIndex((block) => block.type !== 'tool_result');
    if (firstOther !== -1 && blocks.slice(firstOther).some((block) => block.type === 'tool_result')) {
      problems.push(`turn ${index} has text before tool results`);
    }
    for (const id of results) {
      if (!previousCalls.includes(id)) problems.push(`turn ${index}: result ${String(id)} answers no call`);
    }
    if (message.role === 'user' && previous?.role === 'assistant') {
      for (const id of previousCalls) {
        if (!results.includes(id)) problems.push(`turn ${index}: call ${String(id)} has no result`);
      }
    }
  });
  return problems;
}

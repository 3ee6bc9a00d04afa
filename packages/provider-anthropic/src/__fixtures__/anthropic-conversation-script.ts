import type { TokenEstimator } from '@compaction/core';
import type { RecordedRequest, TestServer } from '@compaction/testing/loopback-server';
import { fromAnthropicRequest } from '../from-anthropic-request.js';

/** How the scripted model behaves. */
export interface AgentScript {
  /** Model answers before the final text answer; each calls tools. */
  toolSteps: number;
  /** Answers (1-based) whose first attempt is refused as too long. */
  overflowAt?: number[];
  /**
   * The context window the refusal names. The refusal says the request counted 1.6 times what the server
   * counted (at least one token over the window), as when a real tokenizer counts more than the estimate.
   */
  contextWindow?: number;
  /** Answers that make two tool calls at once. */
  parallelEvery?: number;
  /** How many tool calls each answer makes (index 0 is answer 1); overrides `parallelEvery`. */
  calls?: number[];
  /** Counts the input tokens the server reports (as the model's tokenizer would). */
  estimator: TokenEstimator;
}

/** What the server saw: each `messages` request with the answer it gave. */
export interface ScriptedExchange {
  request: RecordedRequest;
  /** The scripted answer number (1-based); a retry repeats the number of the refused attempt. */
  answer: number;
  overflowed: boolean;
  /** Input tokens the server counted for the request (before splitting them into cache fields). */
  inputTokens: number;
}

/** The output of the scripted `read_file` tool: a large, deterministic file listing. */
export function readFileOutput(path: string, lineCount = 60): string {
  const lines: string[] = [];
  for (let line = 1; line <= lineCount; line++) {
    lines.push(`${path}:${line}: export const value${line} = computeValue(${line * 7}, "${path}-${line}");`);
  }
  return lines.join('\n');
}

/** Tokens the server reports for a request body: the estimate of its conversation in core messages. */
export function requestTokens(body: unknown, estimator: TokenEstimator): number {
  const messages = fromAnthropicRequest(body as { messages: [] });
  return messages.reduce((total, message) => total + estimator.countMessage(message), 0);
}

/**
 * Scripts a tool-using model on the server's `/v1/messages`: answers 1..toolSteps call `read_file` (two
 * calls at once every `parallelEvery` answers), the next answer is plain text. Most input tokens are
 * reported as cache reads and writes, as a cached agent loop would see. Returns the exchanges, in order.
 */
export function scriptAgent(server: TestServer, script: AgentScript): ScriptedExchange[] {
  const exchanges: ScriptedExchange[] = [];
  const overflowAt = new Set(script.overflowAt ?? []);
  let answer = 0;
  let refused = false;
  server.handle('/v1/messages', (request) => {
    const inputTokens = requestTokens(request.body, script.estimator);
    if (!refused) answer++;
    if (overflowAt.has(answer) && !refused) {
      refused = true;
      const maximum = script.contextWindow ?? inputTokens;
      const refusedTokens = Math.max(maximum + 1, Math.ceil(inputTokens * 1.6));
      exchanges.push({ request, answer, overflowed: true, inputTokens });
      return {
        status: 400,
        body: {
          type: 'error',
          error: {
            type: 'invalid_request_error',
            message: `prompt is too long: ${refusedTokens} tokens > ${maximum} maximum`,
          },
        },
      };
    }
    refused = false;
    exchanges.push({ request, answer, overflowed: false, inputTokens });
    const cacheRead = Math.floor(inputTokens * 0.7);
    const cacheWrite = Math.floor(inputTokens * 0.2);
    const usage = {
      input_tokens: inputTokens - cacheRead - cacheWrite,
      cache_read_input_tokens: cacheRead,
      cache_creation_input_tokens: cacheWrite,
      output_tokens: 40,
    };
    const done = answer > script.toolSteps;
    const calls = done
      ? 0
      : (script.calls?.[answer - 1] ??
        (script.parallelEvery !== undefined && answer % script.parallelEvery === 0 ? 2 : 1));
    const content = [
      { type: 'text', text: done ? 'All files are read; the change is ready.' : `Reading more (${answer}).` },
      ...Array.from({ length: calls }, (_, index) => ({
        type: 'tool_use',
        id: `toolu_${answer}_${index}`,
        name: 'read_file',
        input: { path: `src/module-${answer}-${index}.ts` },
      })),
    ];
    return {
      body: {
        id: `msg_${answer}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-5-5',
        content,
        stop_reason: done ? 'end_turn' : 'tool_use',
        stop_sequence: null,
        usage,
      },
    };
  });
  return exchanges;
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

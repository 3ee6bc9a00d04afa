import type { Message, TokenEstimator } from '@compaction/core';
import type { RecordedRequest, Reply, TestServer } from './loopback-wire.js';

/** How a scripted tool-using model behaves; see {@link scriptAgentAnswers}. */
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
  /** Reported tokens are the estimate times this, as when the real tokenizer counts more. Default 1. */
  usageScale?: number;
}

/** What the server saw: each request with the answer it gave. */
export interface ScriptedExchange {
  request: RecordedRequest;
  /** The scripted answer number (1-based); a retry repeats the number of the refused attempt. */
  answer: number;
  overflowed: boolean;
  /** Input tokens the server counted for the request. */
  inputTokens: number;
}

/** A scripted answer: its number, whether it is the last, and the `read_file` calls it makes. */
export interface ScriptedAnswer {
  answer: number;
  done: boolean;
  calls: Array<{ id: string; path: string }>;
}

/** How one provider's API speaks: the path, how a request is counted, an answer and a refusal on the wire. */
export interface ScriptedAgentWire {
  /** The path the model answers on, such as `/v1/messages`. */
  path: string;
  /** Tokens of a request body before `usageScale` (usually the estimate of its core messages). */
  count: (body: unknown) => number;
  /** The response body of an answer. */
  reply: (answer: ScriptedAnswer, inputTokens: number) => unknown;
  /** The reply that refuses a request as too long. */
  refusal: (tokens: number, maximum: number, answer: number) => Reply;
  /** Prefix of tool call ids (`<prefix>_<answer>_<index>`). Default `call`. */
  callIdPrefix?: string;
}

/**
 * Scripts a tool-using model on a loopback server: answers 1..toolSteps call `read_file` (two calls at once
 * every `parallelEvery` answers, or as `calls` says), the next answer is plain text. The first attempt of
 * each `overflowAt` answer is refused as too long; the retry gets the answer. Returns the exchanges, in
 * order, filled in as requests arrive.
 */
export function scriptAgentAnswers(
  server: TestServer,
  script: AgentScript,
  wire: ScriptedAgentWire,
): ScriptedExchange[] {
  const exchanges: ScriptedExchange[] = [];
  const overflowAt = new Set(script.overflowAt ?? []);
  const prefix = wire.callIdPrefix ?? 'call';
  let answer = 0;
  let refused = false;
  server.handle(wire.path, (request) => {
    const inputTokens = Math.round(wire.count(request.body) * (script.usageScale ?? 1));
    if (!refused) answer++;
    if (overflowAt.has(answer) && !refused) {
      refused = true;
      exchanges.push({ request, answer, overflowed: true, inputTokens });
      const maximum = script.contextWindow ?? inputTokens;
      return wire.refusal(Math.max(maximum + 1, Math.ceil(inputTokens * 1.6)), maximum, answer);
    }
    refused = false;
    exchanges.push({ request, answer, overflowed: false, inputTokens });
    const done = answer > script.toolSteps;
    const calls = done
      ? 0
      : (script.calls?.[answer - 1] ??
        (script.parallelEvery !== undefined && answer % script.parallelEvery === 0 ? 2 : 1));
    return {
      body: wire.reply(
        {
          answer,
          done,
          calls: Array.from({ length: calls }, (_, index) => ({
            id: `${prefix}_${answer}_${index}`,
            path: `src/module-${answer}-${index}.ts`,
          })),
        },
        inputTokens,
      ),
    };
  });
  return exchanges;
}

/** The output of the scripted `read_file` tool: a large, deterministic file listing. */
export function readFileOutput(path: string, lineCount = 60): string {
  const lines: string[] = [];
  for (let line = 1; line <= lineCount; line++) {
    lines.push(`${path}:${line}: export const value${line} = computeValue(${line * 7}, "${path}-${line}");`);
  }
  return lines.join('\n');
}

/** Tokens of core messages, as a scripted server counts them. */
export function countMessages(messages: readonly Message[], estimator: TokenEstimator): number {
  return messages.reduce((total, message) => total + estimator.countMessage(message), 0);
}

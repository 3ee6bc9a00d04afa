import {
  type BudgetOptions,
  type CompactionStrategy,
  createPipeline,
  type Message,
  type TokenCounter,
} from '@compaction/core';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { jsonSchema, type ModelMessage, tool } from 'ai';
import type { ScriptedAnswer } from './chat-completions-server.js';

/** Tool-calling steps of the scripted conversation before the final answer. */
export const toolSteps = 24;

/** Window 16,000, limit 15,000, trigger 9,000, target 4,500 tokens: crossed every few steps of ~1,900. */
export const budget: BudgetOptions = {
  contextWindow: 16_000,
  reservedOutputTokens: 1_000,
  safetyMargin: 0,
  trigger: 0.6,
  target: 0.3,
};

/** Shorten old tool results first; drop old turns when that is not enough. */
export function createStrategy(): CompactionStrategy {
  return createPipeline([createToolResultTruncation({ keepRecent: 1 }), createSlidingWindow()]);
}

/** A large, distinct file body (about 6,700 characters). */
export function fileText(path: string): string {
  return Array.from(
    { length: 150 },
    (_, line) => `line ${line} of ${path}: const value${line} = compute(${line});`,
  ).join('\n');
}

/** The `read_file` tool, executed locally with large outputs. */
export const tools = {
  read_file: tool({
    description: 'Reads a file of the repository.',
    inputSchema: jsonSchema<{ path: string }>({
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
    }),
    execute: async ({ path }) => fileText(path),
  }),
};

/** The caller's opening messages. */
export function openingMessages(): ModelMessage[] {
  return [
    { role: 'system', content: 'You are a coding agent. Read the modules one by one, then report.' },
    { role: 'user', content: 'Read every module of the repository and tell me what they compute.' },
  ];
}

/** The answer to the n-th successful step: a `read_file` call, then a final text. */
export function stepAnswer(step: number): ScriptedAnswer {
  return step < toolSteps
    ? { kind: 'tool-call', toolName: 'read_file', input: { path: `src/module-${step}.ts` } }
    : { kind: 'text', text: 'All modules compute values.' };
}

/**
 * The steps at which compaction must fire: step k (k >= 1) sends the previous request (whose input tokens the
 * model reported) plus the messages added since, and compaction fires when that count is over the trigger.
 */
export function expectedCompactionSteps({
  reportedTokens,
  addedMessages,
  counter,
  trigger,
}: {
  /** Input tokens reported for each successful request, in order. */
  reportedTokens: readonly number[];
  /** Core messages added before each step (index k: added between step k-1 and step k). */
  addedMessages: ReadonlyArray<readonly Message[]>;
  counter: TokenCounter;
  trigger: number;
}): number[] {
  const steps: number[] = [];
  for (let step = 1; step < reportedTokens.length; step++) {
    const count = reportedTokens[step - 1]! + counter.estimate(addedMessages[step] ?? []);
    if (count > trigger) steps.push(step);
  }
  return steps;
}

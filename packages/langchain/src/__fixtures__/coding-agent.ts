import { ChatAnthropic } from '@langchain/anthropic';
import { ChatOpenAI } from '@langchain/openai';
import { tool } from 'langchain';
import { z } from 'zod';
import { promptTokens, type Script, type ScriptedTurn, type Wire } from './scripted-model-server.js';

/** The files the agent reads, one a step. */
export const paths = Array.from({ length: 6 }, (_, index) => `src/module-${index + 1}.ts`);

/** A file of about 1,300 tokens, different for each path. */
export function fileText(path: string): string {
  const lines = Array.from(
    { length: 60 },
    (_, line) => `export const value${line} = compute("${path}", ${line}); // keeps the ledger in balance`,
  );
  return lines.join('\n');
}

export const readFile = tool(async ({ path }: { path: string }) => fileText(path), {
  name: 'read_file',
  description: 'Reads a file of the repository and returns its text.',
  schema: z.object({ path: z.string() }),
});

export const systemPrompt = 'You are a coding agent. Read the modules one by one, then explain the bug.';
export const task = 'A half-cent invoice is off by one cent. Find out why.';
export const finalAnswer = 'The half-cent rounding in src/module-4.ts truncates; it should round up.';

/** Compacts at half of a 12,000-token window, down to a quarter. */
export const budget = {
  contextWindow: 12_000,
  reservedOutputTokens: 0,
  safetyMargin: 0,
  trigger: 0.5,
  target: 0.25,
};

const recallPattern = /recall \\?"([A-Za-z0-9_-]+)\\?"/;

/**
 * The model's plan: read every file, then recall one that compaction cleared (the first handle a placeholder
 * names), then answer. It goes by how many requests it has had, so it follows the plan whatever compaction
 * removed. Requests listed in `refuse` are refused as too long instead.
 */
export function codingScript(refuse: readonly number[] = []): Script & { recalledHandle?: string } {
  let step = 0;
  let recalled = false;
  const script: Script & { recalledHandle?: string } = (index, body): ScriptedTurn => {
    if (refuse.includes(index)) {
      // The provider's real limit is below what the budget assumes: 300 tokens short of this request.
      const requestTokens = promptTokens(body);
      return { kind: 'overflow', requestTokens, maximumTokens: requestTokens - 300 };
    }
    const path = paths[step];
    if (path !== undefined) {
      step++;
      return { kind: 'tool-call', name: 'read_file', input: { path } };
    }
    const handle = recallPattern.exec(JSON.stringify(body.messages))?.[1];
    if (!recalled && handle !== undefined) {
      recalled = true;
      script.recalledHandle = handle;
      return { kind: 'tool-call', name: 'recall', input: { handle } };
    }
    return { kind: 'text', text: finalAnswer };
  };
  return script;
}

/** A LangChain chat model of `wire` pointed at the scripted model. */
export function chatModel(wire: Wire, url: string) {
  if (wire === 'openai') {
    return new ChatOpenAI({
      model: 'gpt-4.1-mini',
      apiKey: 'test-key',
      maxRetries: 0,
      configuration: { baseURL: `${url}/v1` },
    });
  }
  return new ChatAnthropic({
    model: 'claude-sonnet-4-5',
    apiKey: 'test-key',
    anthropicApiUrl: url,
    maxRetries: 0,
    maxTokens: 4_096,
    thinking: { type: 'enabled', budget_tokens: 2_048 },
  });
}

import { compactionMiddleware, compactionPrepareStep, fromAiSdk } from '@compaction/ai-sdk';
import { createTokenCounter } from '@compaction/core';
import {
  anthropicMessagesViolations,
  compactedRequestViolations,
  openAIResponsesViolations,
} from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { generateText, type ModelMessage, stepCountIs, wrapLanguageModel } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StrategyUnderTest, strategiesUnderTest } from '../strategies-under-test.js';
import {
  finalText,
  type ScriptedTarget,
  scriptedHistory,
  scriptedModel,
  scriptedPaths,
  scriptedProviderOptions,
  scriptedTools,
} from './scripted-agent-run.js';

// Tools the generated AI SDK conversations leave out, through the real providers and both integrations: an
// agent runs nine scripted rounds (Anthropic: web fetch, bash and text-editor code execution, an MCP server's
// tool, a client tool called from code execution, with and without thinking; Responses: shell, apply-patch,
// local shell, custom, client tool search and function tools, reasoning inline). The history the AI SDK built is sent again with a
// new request, once as it is and once per strategy with a budget that forces compaction, and every compacted
// request is checked against the uncompacted one.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const newest: ModelMessage = { role: 'user', content: 'Good. Now write the changelog entry for the fix.' };

/** Sends the history once (one step), with compaction by `integration` when given; returns what was sent. */
async function send(
  target: ScriptedTarget,
  messages: ModelMessage[],
  thinking: boolean,
  integration?: 'middleware' | 'prepare-step',
  strategy?: StrategyUnderTest,
) {
  server.reset();
  server.handle(scriptedPaths[target], () => ({ body: finalText(target, 'Changelog written.') }));
  const tokens = createTokenCounter().count(fromAiSdk(messages));

  const settings = {
    strategy: await (strategy ?? strategiesUnderTest[0]!).strategy(),
    ...(strategy?.fallback === undefined ? {} : { fallback: await strategy.fallback() }),
    budget: {
      contextWindow: tokens * 4,
      reservedOutputTokens: 0,
      safetyMargin: 0,
      trigger: Math.floor(tokens * 0.6),
      target: Math.floor(tokens * 0.3),
    },
  };
  const model = scriptedModel(target, server);
  const providerOptions = scriptedProviderOptions(target, thinking);
  let compactions = 0;
  const middleware = integration === 'middleware' ? compactionMiddleware(settings) : undefined;
  const prepareStep = integration === 'prepare-step' ? compactionPrepareStep(settings) : undefined;
  (middleware ?? prepareStep)?.compactor.on('end', () => compactions++);
  await generateText({
    model: middleware === undefined ? model : wrapLanguageModel({ model, middleware }),
    tools: scriptedTools(target, server),
    messages,
    maxRetries: 0,
    stopWhen: stepCountIs(1),
    ...(prepareStep === undefined ? {} : { prepareStep }),
    ...(providerOptions === undefined ? {} : { providerOptions }),
  });
  return { body: server.requests[0]!.body, compactions };
}

/** The result types the scripted history must hold, so the check covers them. */
const expectedTypes: Record<ScriptedTarget, string[]> = {
  anthropic: [
    'web_fetch_tool_result',
    'bash_code_execution_tool_result',
    'text_editor_code_execution_tool_result',
    'mcp_tool_use',
    'mcp_tool_result',
    'code_execution_tool_result',
  ],
  'openai-responses': [
    'shell_call_output',
    'apply_patch_call_output',
    'local_shell_call_output',
    'tool_search_output',
    'custom_tool_call_output',
    'reasoning',
  ],
};

/** Every `type` in a request body. */
function typesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(typesIn);
  if (typeof value !== 'object' || value === null) return [];
  const own = (value as { type?: unknown }).type;
  return [...(typeof own === 'string' ? [own] : []), ...Object.values(value).flatMap(typesIn)];
}

describe.each([
  ['anthropic', true],
  ['anthropic', false],
  ['openai-responses', false],
] as const)('%s tools beyond web search (thinking %s)', (target, thinking) => {
  it.each(['middleware', 'prepare-step'] as const)(
    '%s: compacted requests keep every call with its result',
    async (integration) => {
      const history = [...(await scriptedHistory(server, target, 9, thinking)), newest];
      const baseline = await send(target, history, thinking);
      const validate = target === 'anthropic' ? anthropicMessagesViolations : openAIResponsesViolations;
      expect(validate(baseline.body)).toEqual([]);
      expect(typesIn(baseline.body)).toEqual(expect.arrayContaining(expectedTypes[target]));
      if (target === 'anthropic')
        expect(JSON.stringify(baseline.body)).toContain('"caller":{"type":"code_execution');
      const problems: unknown[] = [];
      for (const strategy of strategiesUnderTest) {
        const compacted = await send(target, history, thinking, integration, strategy);
        if (compacted.compactions === 0) problems.push(`${strategy.name}: no compaction`);
        const violations = compactedRequestViolations(target, baseline.body, compacted.body);
        if (violations.length > 0)
          problems.push({ strategy: strategy.name, violations, body: compacted.body });
      }
      expect(problems).toEqual([]);
    },
  );
});

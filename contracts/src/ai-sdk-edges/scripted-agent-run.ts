import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { TestServer } from '@compaction/testing/loopback-server';
import {
  generateText,
  jsonSchema,
  type ModelMessage,
  stepCountIs,
  type TextPart,
  type ToolSet,
  tool,
} from 'ai';
import type { TargetModel } from '../ai-sdk/ai-sdk-target.js';
import {
  anthropicText,
  anthropicToolRound,
  longOutput,
  responsesText,
  responsesToolRound,
} from './scripted-tool-rounds.js';

type ProviderOptions = NonNullable<TextPart['providerOptions']>;

/** The two targets whose provider-run and client-run tools the scripted agent uses. */
export type ScriptedTarget = 'anthropic' | 'openai-responses';

export const scriptedPaths: Record<ScriptedTarget, string> = {
  anthropic: '/v1/messages',
  'openai-responses': '/v1/responses',
};

const settingsOf = (server: TestServer) => ({ baseURL: `${server.url}/v1`, apiKey: 'loopback-test-key' });

/** The real provider's model of a target, sending to the loopback server. */
export function scriptedModel(target: ScriptedTarget, server: TestServer): TargetModel {
  return target === 'anthropic'
    ? createAnthropic(settingsOf(server)).messages('claude-sonnet-4-5')
    : createOpenAI(settingsOf(server)).responses('gpt-5');
}

const readFile = tool({
  description: 'Reads a file of the repository.',
  inputSchema: jsonSchema<{ path: string }>({
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
  }),
  execute: async ({ path }) => longOutput(`read ${path}`, path.length),
});

/** The tools of the scripted agent: a client tool, and the provider's tools its answers use. */
export function scriptedTools(target: ScriptedTarget, server: TestServer): ToolSet {
  if (target === 'anthropic') {
    const anthropic = createAnthropic(settingsOf(server));
    return {
      read_file: readFile,
      web_fetch: anthropic.tools.webFetch_20250910({ maxUses: 5 }),
      code_execution: anthropic.tools.codeExecution_20250825(),
    };
  }
  const openai = createOpenAI(settingsOf(server));
  return {
    read_file: readFile,
    shell: openai.tools.shell({
      execute: async ({ action }) => ({
        output: action.commands.map((command) => ({
          stdout: longOutput(command, command.length),
          stderr: '',
          outcome: { type: 'exit' as const, exitCode: 0 },
        })),
      }),
    }),
    apply_patch: openai.tools.applyPatch({
      execute: async ({ operation }) => ({
        status: 'completed' as const,
        output: `patched ${operation.path}`,
      }),
    }),
    local_shell: openai.tools.localShell({
      execute: async ({ action }) => ({ output: longOutput(action.command.join(' '), 3) }),
    }),
    tool_search: openai.tools.toolSearch({
      execution: 'client',
      execute: async () => ({
        tools: ['deploy', 'rollback', 'status'].map((name) => ({
          type: 'function',
          name,
          description: longOutput(`the ${name} tool`, 1),
          parameters: { type: 'object', properties: {} },
        })),
      }),
    }),
    run_sql: {
      ...openai.tools.customTool({ name: 'run_sql', description: 'Runs one SQL query.' }),
      execute: async (query: string) => longOutput(`rows of ${query}`, 5),
    } as ToolSet[string],
  };
}

/** Provider options of the scripted calls: thinking for Anthropic, encrypted reasoning inline for Responses. */
export function scriptedProviderOptions(
  target: ScriptedTarget,
  thinking: boolean,
): ProviderOptions | undefined {
  if (target === 'openai-responses') {
    return { openai: { store: false, include: ['reasoning.encrypted_content'] } };
  }
  return {
    anthropic: {
      mcpServers: [{ type: 'url', name: 'docs', url: 'https://docs.example.com/mcp' }],
      ...(thinking ? { thinking: { type: 'enabled', budgetTokens: 2048 } } : {}),
    },
  };
}

const task: ModelMessage = {
  role: 'user',
  content: 'The nightly build fails in src/module-3.ts. Find out why, fix it and run the tests.',
};

/**
 * Runs the scripted agent for `rounds` tool rounds through `generateText` and the real provider, and returns
 * the history the AI SDK built (the task and its response messages), as an application would keep it.
 */
export async function scriptedHistory(
  server: TestServer,
  target: ScriptedTarget,
  rounds: number,
  thinking: boolean,
): Promise<ModelMessage[]> {
  server.reset();
  let answered = 0;
  server.handle(scriptedPaths[target], (request) => {
    const round = answered++;
    const body = request.body as { thinking?: { type?: string } };
    if (round >= rounds) return { body: finalText(target, 'The build passes again.') };
    return {
      body:
        target === 'anthropic'
          ? anthropicToolRound(round, body.thinking !== undefined && body.thinking.type !== 'disabled')
          : responsesToolRound(round),
    };
  });
  const providerOptions = scriptedProviderOptions(target, thinking);
  const result = await generateText({
    model: scriptedModel(target, server),
    tools: scriptedTools(target, server),
    messages: [task],
    maxRetries: 0,
    stopWhen: stepCountIs(rounds + 1),
    ...(providerOptions === undefined ? {} : { providerOptions }),
  });
  return [task, ...result.response.messages];
}

/** A final text answer of a target. */
export function finalText(target: ScriptedTarget, text: string): unknown {
  return target === 'anthropic' ? anthropicText(text) : responsesText(text);
}

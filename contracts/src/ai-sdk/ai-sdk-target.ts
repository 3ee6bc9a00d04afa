import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { ProviderRequestFormat } from '@compaction/testing';
import { jsonSchema, type TextPart, type ToolSet, tool, type wrapLanguageModel } from 'ai';

/**
 * The provider APIs the AI SDK path is checked against: each is a real AI SDK provider, named after the wire
 * format of its requests as the contract validators know it.
 */
export type AiSdkTarget = ProviderRequestFormat;

export const aiSdkTargets: readonly AiSdkTarget[] = ['anthropic', 'openai-chat', 'openai-responses'];

/** Client tools the generated histories call; the same names the provider request generators use. */
export const clientToolNames = ['read_file', 'bash', 'edit_file', 'search_code', 'run_tests'] as const;

/** The tool the loopback server asks for at the first step, so every run goes round one tool loop. */
export const loopToolName = 'read_file';

/** What a generated conversation needs from the call besides its messages. */
export interface TargetCallOptions {
  thinking: boolean;
  /** OpenAI Responses: whether the API stores items (earlier items are then sent as item references). */
  store: boolean;
}

/** The path each target's requests are sent to, under the loopback server's `/v1`. */
export const requestPaths: Record<AiSdkTarget, string> = {
  anthropic: '/v1/messages',
  'openai-chat': '/v1/chat/completions',
  'openai-responses': '/v1/responses',
};

/** A provider-level model, as the AI SDK's middleware wraps it. */
export type TargetModel = Parameters<typeof wrapLanguageModel>[0]['model'];

type ProviderOptions = NonNullable<TextPart['providerOptions']>;

/** The real provider's model for a target, sending to `baseURL` (the loopback server). */
export function targetModel(target: AiSdkTarget, baseURL: string): TargetModel {
  const settings = { baseURL: `${baseURL}/v1`, apiKey: 'loopback-test-key' };
  switch (target) {
    case 'anthropic':
      return createAnthropic(settings).messages('claude-sonnet-4-5');
    case 'openai-chat':
      return createOpenAI(settings).chat('gpt-4.1');
    case 'openai-responses':
      return createOpenAI(settings).responses('gpt-5');
  }
}

const clientTools: ToolSet = Object.fromEntries(
  clientToolNames.map((name) => [
    name,
    tool({
      description: `The agent's ${name} tool.`,
      inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object', additionalProperties: true }),
      execute: async () => `${name} finished: 3 files, 120 lines.`,
    }),
  ]),
);

/**
 * The tools of the call: the client tools, and the provider tools whose calls the history holds (a request
 * with tool calls must define tools, and a provider-executed call is read through its tool's name).
 */
export function targetTools(target: AiSdkTarget, baseURL: string, options: TargetCallOptions): ToolSet {
  const settings = { baseURL: `${baseURL}/v1`, apiKey: 'loopback-test-key' };
  switch (target) {
    case 'anthropic':
      return {
        ...clientTools,
        web_search: createAnthropic(settings).tools.webSearch_20250305({ maxUses: 5 }),
      };
    case 'openai-chat':
      return clientTools;
    case 'openai-responses': {
      const openai = createOpenAI(settings);
      return {
        ...clientTools,
        web_search: openai.tools.webSearch({}),
        ...(options.store
          ? {
              docs: openai.tools.mcp({
                serverLabel: 'docs',
                serverUrl: 'https://docs.example.com/mcp',
                requireApproval: 'always',
              }),
            }
          : {}),
      };
    }
  }
}

/** Provider options of the call: thinking for Anthropic, storage and encrypted reasoning for Responses. */
export function targetProviderOptions(
  target: AiSdkTarget,
  options: TargetCallOptions,
): ProviderOptions | undefined {
  switch (target) {
    case 'anthropic':
      return options.thinking
        ? { anthropic: { thinking: { type: 'enabled' as const, budgetTokens: 2048 } } }
        : undefined;
    case 'openai-chat':
      return undefined;
    case 'openai-responses':
      return {
        openai: options.store
          ? { store: true }
          : { store: false, include: ['reasoning.encrypted_content' as const] },
      };
  }
}

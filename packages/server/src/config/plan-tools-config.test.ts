import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidOptionsError, resolveCompactionConfig, toolCallsOf } from '@compaction/core';
import { fromAnthropicRequest } from '@compaction/provider-anthropic';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../__fixtures__/temporary-directory.js';
import { CliError } from '../errors/cli-error.js';
import { startProxy } from '../proxy/__fixtures__/start-proxy.js';
import { compactMessages } from '../run-compaction.js';
import { createInstalledStrategyRegistry } from './installed-strategies.js';
import { mergeConfig } from './merge-config.js';
import { resolveSettings } from './resolve-settings.js';

// `planTools` of a config reaches the Compactor of each command that reads it: the same history, compacted with
// and without `"planTools": false`, keeps its old plan only with the pin.

const registry = await createInstalledStrategyRegistry();

/** A folder holding `compaction.config.json` with `config`, and the file's path. */
function configFile(config: unknown): { folder: string; path: string } {
  const folder = temporaryDirectory();
  const path = join(folder, 'compaction.config.json');
  writeFileSync(path, JSON.stringify(config));
  return { folder, path };
}

type Block = Record<string, unknown>;

/**
 * A coding agent's request in Anthropic's shape: the task, two file reads, a `TodoWrite` plan, then 27 more
 * reads of about 400 tokens each, over an 8,000-token window, so the plan's turn is old enough to drop.
 */
function requestWithAnOldPlan(): { model: string; max_tokens: number; messages: Block[] } {
  const messages: Block[] = [{ role: 'user', content: 'Fix the failing date parser.' }];
  const call = (id: string, name: string, input: unknown, result: string) => {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id, name, input }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: result }] });
  };
  const line = (turn: number, index: number) => `export const value${turn}_${index} = compute(${turn});`;
  const file = (turn: number) => Array.from({ length: 36 }, (_, index) => line(turn, index)).join('\n');
  for (let turn = 0; turn < 30; turn++) {
    if (turn === 2) {
      const todos = [{ content: 'Find the parser', status: 'in_progress', activeForm: 'Finding the parser' }];
      call('toolu_plan', 'TodoWrite', { todos }, 'Todos have been modified successfully.');
    } else {
      call(`toolu_${turn}`, 'read_file', { path: `src/module-${turn}.ts` }, file(turn));
    }
  }
  return { model: 'claude-sonnet-5-5', max_tokens: 1024, messages };
}

/** The tool names of the calls the upstream received, after the proxy compacted `requestWithAnOldPlan`. */
async function forwardedToolNames(upstream: TestServer, config: unknown): Promise<string[]> {
  upstream.reset();
  upstream.handle('/v1/messages', () => ({
    body: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5-5',
      content: [{ type: 'text', text: 'Done.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 100, output_tokens: 5 },
    },
  }));
  const { path } = configFile(config);
  const proxy = await startProxy([upstream.url], { config: path, 'context-window': '8000' });
  try {
    const response = await fetch(`${proxy.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(requestWithAnOldPlan()),
    });
    expect(response.status).toBe(200);
    await response.text();
  } finally {
    await proxy.close();
  }
  const { messages } = upstream.requests.at(-1)!.body as { messages: { content: Block[] | string }[] };
  // Compacted: fewer messages than the 61 sent.
  expect(messages.length).toBeLessThan(61);
  return messages.flatMap((message) =>
    typeof message.content === 'string'
      ? []
      : message.content.flatMap((block) => (block.type === 'tool_use' ? [block.name as string] : [])),
  );
}

describe('planTools in the config', () => {
  let upstream: TestServer;
  beforeAll(async () => {
    upstream = await startTestServer();
  });
  afterAll(() => upstream.close());

  it('false turns the plan pin off in the proxy: the plan the default keeps is dropped', async () => {
    const kept = await forwardedToolNames(upstream, { strategy: 'sliding-window' });
    expect(kept).toContain('TodoWrite');
    const dropped = await forwardedToolNames(upstream, { strategy: 'sliding-window', planTools: false });
    expect(dropped).not.toContain('TodoWrite');
    expect(dropped).toContain('read_file');
  });

  it('false turns the plan pin off in compaction compact (compactMessages)', async () => {
    const messages = fromAnthropicRequest(requestWithAnOldPlan() as never);
    const compactedToolNames = async (config: unknown) => {
      const settings = resolveSettings(registry, {}, configFile(config).folder);
      const report = await compactMessages(messages, { settings, registry, targetOfInput: true });
      expect(report.messages.length).toBeLessThan(messages.length);
      return report.messages.flatMap((message) => toolCallsOf(message).map((call) => call.toolName));
    };
    expect(await compactedToolNames({ strategy: 'pruning', budget: { target: 0.3 } })).toContain('TodoWrite');
    const off = await compactedToolNames({ strategy: 'pruning', budget: { target: 0.3 }, planTools: false });
    expect(off).not.toContain('TodoWrite');
  });

  it('is kept from the operator config when a serve request lays its own config over it', () => {
    const { folder } = configFile({ strategy: 'sliding-window', planTools: ['set_goals'] });
    const operator = resolveSettings(registry, {}, folder);
    expect(operator.config.planTools).toEqual(['set_goals']);
    const merged = mergeConfig(operator, { budget: { target: 0.4 } }, registry);
    expect(merged.config.planTools).toEqual(['set_goals']);
    expect(mergeConfig(operator, { planTools: false }, registry).config.planTools).toBe(false);
  });

  it('a value that is neither a list of names nor false is an InvalidOptionsError naming planTools', async () => {
    const config = { strategy: 'sliding-window', planTools: 'TodoWrite' } as never;
    const error = await resolveCompactionConfig(config, registry).catch((caught: unknown) => caught);
    expect(InvalidOptionsError.isInstance(error)).toBe(true);
    expect((error as InvalidOptionsError).issues.map((issue) => issue.path)).toEqual(['planTools']);
    expect((error as Error).message).toMatch(/planTools/);

    const { folder } = configFile({ strategy: 'sliding-window', planTools: 'TodoWrite' });
    const refused = (() => {
      try {
        resolveSettings(registry, {}, folder);
      } catch (caught) {
        return caught;
      }
    })();
    expect(CliError.isInstance(refused)).toBe(true);
    expect((refused as CliError).message).toMatch(
      /invalid config: planTools does not match any allowed form/,
    );
    expect(InvalidOptionsError.isInstance((refused as CliError).cause)).toBe(true);
  });
});

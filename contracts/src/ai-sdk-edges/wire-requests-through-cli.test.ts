import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { compactedRequestViolations } from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  finalText,
  type ScriptedTarget,
  scriptedHistory,
  scriptedModel,
  scriptedPaths,
  scriptedProviderOptions,
  scriptedTools,
} from './scripted-agent-run.js';

// The requests the AI SDK's providers wrote for the scripted agent (Anthropic web fetch, code execution, MCP and
// programmatic tool calls, with thinking; Responses shell, apply-patch, local shell, custom tool and tool search
// with encrypted reasoning), as wire JSON, through the built CLI: `compaction compact` with each bundled
// strategy must write requests the API accepts, with nothing lost that must stay.

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const binary = join(dirname(require.resolve('@compaction/cli/package.json')), 'dist', 'bin.js');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const newest: ModelMessage = { role: 'user', content: 'Good. Now write the changelog entry for the fix.' };

/** The request the real provider sends for the scripted agent's history and a new request. */
async function wireRequest(target: ScriptedTarget, thinking: boolean): Promise<unknown> {
  const history = [...(await scriptedHistory(server, target, 12, thinking)), newest];
  server.reset();
  server.handle(scriptedPaths[target], () => ({ body: finalText(target, 'Written.') }));
  const providerOptions = scriptedProviderOptions(target, thinking);
  await generateText({
    model: scriptedModel(target, server),
    tools: scriptedTools(target, server),
    messages: history,
    maxRetries: 0,
    stopWhen: stepCountIs(1),
    ...(providerOptions === undefined ? {} : { providerOptions }),
  });
  return server.requests[0]!.body;
}

const strategies = [
  'tool-result-truncation,sliding-window',
  'tool-result-truncation',
  'pruning',
  'sliding-window',
];

describe('wire requests of the AI SDK providers through compaction compact', () => {
  it.each([
    ['anthropic', true],
    ['anthropic', false],
    ['openai-responses', false],
  ] as const)(
    '%s (thinking %s): every strategy writes a request the API accepts',
    async (target, thinking) => {
      const request = await wireRequest(target, thinking);
      const folder = mkdtempSync(join(tmpdir(), 'wire-request-'));
      const input = join(folder, 'request.json');
      writeFileSync(input, JSON.stringify(request));
      const problems: unknown[] = [];
      onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
      for (const strategy of strategies) {
        const output = join(folder, `${strategy}.json`);
        const { stdout } = await run(process.execPath, [
          binary,
          'compact',
          input,
          '--strategy',
          strategy,
          '--target',
          '0.3',
          '--json',
          '-o',
          output,
        ]);
        const report = JSON.parse(stdout) as { compacted: boolean };
        if (!report.compacted) problems.push(`${strategy}: nothing compacted`);
        const violations = compactedRequestViolations(
          target,
          request,
          JSON.parse(readFileSync(output, 'utf8')),
        );
        if (violations.length > 0) problems.push({ strategy, violations });
      }
      expect(problems).toEqual([]);
    },
  );
});

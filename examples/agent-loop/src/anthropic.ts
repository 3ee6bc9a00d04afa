import Anthropic from '@anthropic-ai/sdk';
import { createStrategyRegistry, resolveCompactionConfig } from '@compaction/core';
import { createAnthropicConversation } from '@compaction/provider-anthropic';
import slidingWindow from '@compaction/strategy-sliding-window';
import toolResultTruncation from '@compaction/strategy-tool-result-truncation';
import { describeCall, reportProgress } from './report.js';
import { scriptedAnthropic } from './scripted-anthropic.js';
import { startScriptedModel } from './scripted-server.js';
import { runWorkspaceTool, task } from './workspace.js';

// A deliberately small window, so that a short run crosses the trigger several times.
const contextWindow = 16_000;
const apiKey = process.env.ANTHROPIC_API_KEY;
const online = apiKey !== undefined && apiKey !== '' && !process.argv.includes('--offline');
const model = process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-5-5';

const scripted = online
  ? undefined
  : await startScriptedModel(scriptedAnthropic, { contextWindow, overflowAt: 9 });
const client = online
  ? new Anthropic({ apiKey })
  : new Anthropic({ apiKey: 'offline', baseURL: scripted!.url, maxRetries: 0 });
console.log(online ? `Mode: online (${model})` : `Mode: offline (scripted model on ${scripted!.url})`);

const tools: Anthropic.Tool[] = [
  {
    name: 'read_file',
    description: 'Reads a file of the repository.',
    input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  {
    name: 'run_tests',
    description: 'Runs the test suite.',
    input_schema: { type: 'object', properties: {} },
  },
];

// The whole setup: the client, the request defaults, and the strategies to run when the trigger fires.
const registry = createStrategyRegistry({ definitions: [toolResultTruncation, slidingWindow] });
const conversation = createAnthropicConversation({
  client,
  system: 'You are a coding agent. Use the tools to inspect the repository before answering.',
  request: { model, max_tokens: 1_024, tools },
  compaction: {
    ...(await resolveCompactionConfig({ strategy: ['tool-result-truncation', 'sliding-window'] }, registry)),
    budget: { contextWindow },
  },
});

const printSummary = reportProgress(conversation, (response) =>
  response.content.flatMap((block) =>
    block.type === 'tool_use' ? [describeCall(block.name, block.input)] : [],
  ),
);
const testRuns = { count: 0 };
try {
  const response = await conversation.run(task, {
    runTool: (call) => runWorkspaceTool(call.name, call.input, testRuns),
    maxSteps: online ? 16 : 40,
  });
  printSummary(response.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(' '));
} finally {
  await scripted?.close();
}

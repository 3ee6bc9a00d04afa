import Anthropic from '@anthropic-ai/sdk';
import { createAnthropicConversation } from '@compaction/provider-anthropic';
import { compactionSettings, contextWindow, systemPrompt } from './compaction-settings.js';
import { describeCall, reportProgress } from './report.js';
import { scriptedAnthropic } from './scripted-anthropic.js';
import { startScriptedModel } from './scripted-server.js';
import { runWorkspaceTool, task } from './workspace.js';

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

// The whole setup: the client, the request defaults, and the compaction (see compaction-settings.ts).
const conversation = createAnthropicConversation({
  client,
  system: systemPrompt,
  request: { model, max_tokens: 1_024, tools },
  compaction: await compactionSettings(),
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

import Anthropic from '@anthropic-ai/sdk';
import { createAnthropicConversation } from '@compaction/provider-anthropic';
import { compactionSettings, systemPrompt } from './compaction-settings.js';
import { describeCall, reportProgress } from './report.js';
import { startRunMode } from './run-mode.js';
import { scriptedAnthropic } from './scripted-anthropic.js';
import { runWorkspaceTool, task, workspaceTools } from './workspace.js';

const { online, apiKey, model, scripted } = await startRunMode({
  keyVariable: 'ANTHROPIC_API_KEY',
  modelVariable: 'ANTHROPIC_MODEL',
  defaultModel: 'claude-sonnet-5-5',
  format: scriptedAnthropic,
});
const client = online
  ? new Anthropic({ apiKey })
  : new Anthropic({ apiKey: 'offline', baseURL: scripted!.url, maxRetries: 0 });
console.log(online ? `Mode: online (${model})` : `Mode: offline (scripted model on ${scripted!.url})`);

const tools: Anthropic.Tool[] = workspaceTools.map(({ name, description, parameters }) => ({
  name,
  description,
  input_schema: parameters,
}));

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

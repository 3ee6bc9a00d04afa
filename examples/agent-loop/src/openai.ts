import { createOpenAIConversation } from '@compaction/provider-openai';
import OpenAI from 'openai';
import { compactionSettings, systemPrompt } from './compaction-settings.js';
import { describeCall, reportProgress } from './report.js';
import { startRunMode } from './run-mode.js';
import { scriptedOpenAI } from './scripted-openai.js';
import { runWorkspaceTool, task, workspaceTools } from './workspace.js';

const { online, apiKey, model, scripted } = await startRunMode({
  keyVariable: 'OPENAI_API_KEY',
  modelVariable: 'OPENAI_MODEL',
  defaultModel: 'gpt-5.4-mini',
  format: scriptedOpenAI,
});
const baseURL = scripted && `${scripted.url}/v1`;
const client = online
  ? new OpenAI({ apiKey })
  : new OpenAI({ apiKey: 'offline', baseURL: baseURL!, maxRetries: 0 });
console.log(online ? `Mode: online (${model})` : `Mode: offline (scripted model on ${baseURL})`);

const tools: OpenAI.Chat.ChatCompletionTool[] = workspaceTools.map((tool) => ({
  type: 'function',
  function: tool,
}));

// The whole setup: the client, the request defaults, and the compaction (see compaction-settings.ts).
const conversation = createOpenAIConversation({
  client,
  messages: [
    {
      role: 'developer',
      content: systemPrompt,
    },
  ],
  request: { model, max_completion_tokens: 1_024, tools },
  compaction: await compactionSettings(),
});

const printSummary = reportProgress(conversation, (completion) =>
  (completion.choices[0]?.message.tool_calls ?? []).flatMap((call) =>
    call.type === 'function' ? [describeCall(call.function.name, JSON.parse(call.function.arguments))] : [],
  ),
);
const testRuns = { count: 0 };
try {
  const completion = await conversation.run(task, {
    runTool: (call) => runWorkspaceTool(call.function.name, JSON.parse(call.function.arguments), testRuns),
    maxSteps: online ? 16 : 40,
  });
  printSummary(completion.choices[0]?.message.content ?? '');
} finally {
  await scripted?.close();
}

import { createStrategyRegistry, resolveCompactionConfig } from '@compaction/core';
import { createOpenAIConversation } from '@compaction/provider-openai';
import slidingWindow from '@compaction/strategy-sliding-window';
import toolResultTruncation from '@compaction/strategy-tool-result-truncation';
import OpenAI from 'openai';
import { describeCall, reportProgress } from './report.js';
import { scriptedOpenAI } from './scripted-openai.js';
import { startScriptedModel } from './scripted-server.js';
import { runWorkspaceTool, task } from './workspace.js';

// A deliberately small window, so that a short run crosses the trigger several times.
const contextWindow = 16_000;
const apiKey = process.env.OPENAI_API_KEY;
const online = apiKey !== undefined && apiKey !== '' && !process.argv.includes('--offline');
const model = process.env.OPENAI_MODEL ?? 'gpt-5.4-mini';

const scripted = online
  ? undefined
  : await startScriptedModel(scriptedOpenAI, { contextWindow, overflowAt: 9 });
const baseURL = scripted && `${scripted.url}/v1`;
const client = online
  ? new OpenAI({ apiKey })
  : new OpenAI({ apiKey: 'offline', baseURL: baseURL!, maxRetries: 0 });
console.log(online ? `Mode: online (${model})` : `Mode: offline (scripted model on ${baseURL})`);

const tools: OpenAI.Chat.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'read_file',
      description: 'Reads a file of the repository.',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  },
  {
    type: 'function',
    function: {
      name: 'run_tests',
      description: 'Runs the test suite.',
      parameters: { type: 'object', properties: {} },
    },
  },
];

// The whole setup: the client, the request defaults, and the strategies to run when the trigger fires.
const registry = createStrategyRegistry({ definitions: [toolResultTruncation, slidingWindow] });
const conversation = createOpenAIConversation({
  client,
  messages: [
    {
      role: 'developer',
      content: 'You are a coding agent. Use the tools to inspect the repository before answering.',
    },
  ],
  request: { model, max_completion_tokens: 1_024, tools },
  compaction: {
    ...(await resolveCompactionConfig({ strategy: ['tool-result-truncation', 'sliding-window'] }, registry)),
    budget: { contextWindow },
  },
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

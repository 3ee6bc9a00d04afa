import { createStrategyRegistry, resolveCompactionConfig } from '@compaction/core';
import { createOpenAIConversation } from '@compaction/provider-openai';
import slidingWindow from '@compaction/strategy-sliding-window';
import toolResultTruncation from '@compaction/strategy-tool-result-truncation';
import OpenAI from 'openai';
import { startScriptedModel } from './scripted-model.js';
import { runWorkspaceTool, task } from './workspace.js';

// A deliberately small window, so that a short run crosses the trigger several times.
const contextWindow = 16_000;
const apiKey = process.env.OPENAI_API_KEY;
const online = apiKey !== undefined && apiKey !== '' && !process.argv.includes('--offline');
const model = process.env.OPENAI_MODEL ?? 'gpt-5.4-mini';

const scripted = online ? undefined : await startScriptedModel({ contextWindow, overflowAt: 9 });
const client = online
  ? new OpenAI({ apiKey })
  : new OpenAI({ apiKey: 'offline', baseURL: scripted!.baseURL, maxRetries: 0 });
console.log(online ? `Mode: online (${model})` : `Mode: offline (scripted model on ${scripted!.baseURL})`);

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

const format = (tokens: number) => tokens.toLocaleString('en-US');
let lastSent = 0;
conversation.on('compaction', ({ step, event }) => {
  console.log(
    `step ${String(step).padStart(2)}  compacted (${event.trigger}, ${event.strategy}): ` +
      `${format(event.tokensBefore)} -> ${format(event.tokensAfter)} tokens, ` +
      `${event.messagesBefore} -> ${event.messagesAfter} messages`,
  );
});
conversation.on('overflow', ({ step, error }) => {
  console.log(`step ${String(step).padStart(2)}  refused as too long (${error.message}); retrying once`);
});
conversation.on('response', ({ step, response, inputTokens = 0 }) => {
  lastSent = inputTokens;
  const calls = (response.choices[0]?.message.tool_calls ?? []).flatMap((call) =>
    call.type === 'function'
      ? [
          `${call.function.name} ${(JSON.parse(call.function.arguments) as { path?: string }).path ?? ''}`.trim(),
        ]
      : [],
  );
  console.log(
    `step ${String(step).padStart(2)}  sent ${format(inputTokens).padStart(6)} tokens  ` +
      (calls.length > 0 ? `-> ${calls.join(', ')}` : '-> answer'),
  );
});

const testRuns = { count: 0 };
try {
  const completion = await conversation.run(task, {
    runTool: (call) => runWorkspaceTool(call.function.name, JSON.parse(call.function.arguments), testRuns),
    maxSteps: online ? 16 : 40,
  });
  const compactions = conversation.compactions;
  const automatic = compactions.filter((event) => event.trigger === 'auto').length;
  const overflow = compactions.filter((event) => event.trigger === 'overflow').length;
  const history = conversation.history;
  const historyTokens = conversation.compactor.counter.estimate(conversation.coreHistory);
  console.log('');
  console.log(
    `Done after ${history.filter((message) => message.role === 'assistant').length} answers: ` +
      (completion.choices[0]?.message.content ?? ''),
  );
  console.log(
    `History: ${history.length} messages kept whole (about ${format(historyTokens)} tokens); ` +
      `the last request carried ${format(lastSent)} tokens.`,
  );
  console.log(`Compactions: ${automatic} automatic, ${overflow} after an overflow.`);
} finally {
  await scripted?.close();
}

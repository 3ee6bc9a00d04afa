import type { CompactionEvent } from '@compaction/core';
import { InMemoryCompactionStore } from '@compaction/core';
import { compactionMiddleware } from '@compaction/langchain';
import { HumanMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent, createMiddleware } from 'langchain';
import { type ScriptedModel, startScriptedModel } from './scripted-model.js';
import { tools } from './tools.js';

const contextWindow = 16_000;
const apiKey = process.env.OPENAI_API_KEY;
const online = apiKey !== undefined && apiKey !== '' && !process.argv.includes('--offline');
const number = (value: number) => value.toLocaleString('en-US');

// Offline, a local stand-in answers with a scripted plan; online, the real API decides what to call.
let scripted: ScriptedModel | undefined;
let model: ChatOpenAI;
if (online) {
  model = new ChatOpenAI({ model: process.env.OPENAI_MODEL ?? 'gpt-4.1-mini', apiKey, maxRetries: 2 });
  console.log(`Mode: online (${model.model})`);
} else {
  scripted = await startScriptedModel();
  model = new ChatOpenAI({
    model: 'scripted-model',
    apiKey: 'offline',
    maxRetries: 0,
    configuration: { baseURL: scripted.baseURL },
  });
  console.log(`Mode: offline (scripted model on ${scripted.baseURL.replace(/\/v1$/, '')})`);
}

// Old tool outputs are shortened, by the strategy's name; what they held is archived for `recall`.
const store = new InMemoryCompactionStore();
const compaction = compactionMiddleware({
  strategy: { name: 'tool-result-truncation', options: { keepRecent: 1 } },
  budget: { contextWindow, reservedOutputTokens: 1_000, trigger: 0.6, target: 0.3 },
  store,
  archive: true,
  sessionId: 'billing-bug',
});
const events: CompactionEvent[] = [];
(await compaction.compactor()).on('end', (event) => events.push(event));

// Prints what each model call sent, after compaction, as the provider reported it.
let step = 0;
const report = createMiddleware({
  name: 'ReportSteps',
  wrapModelCall: async (request, handler) => {
    const before = events.length;
    const response = await handler(request);
    step++;
    const event = events[before];
    if (event !== undefined) {
      console.log(
        `compacted before step ${step} (${event.trigger}, ${event.strategy}): ` +
          `${number(event.tokensBefore)} → ${number(event.tokensAfter)} tokens, ${event.messagesBefore} → ${event.messagesAfter} messages`,
      );
    }
    const calls = response.tool_calls?.map((call) => `${call.name}(${JSON.stringify(call.args)})`) ?? [];
    const sent = response.usage_metadata?.input_tokens ?? 0;
    console.log(
      `step ${String(step).padStart(2)} sent ${number(sent).padStart(6)} tokens` +
        (calls.length === 0 ? '' : ` → ${calls.join(', ')}`),
    );
    return response;
  },
});

const agent = createAgent({
  model,
  tools,
  systemPrompt: 'You are a coding agent. Read the billing modules, run the tests, then explain the bug.',
  // The report runs outside the compaction, so it sees each call as it was sent.
  middleware: [report, compaction],
});

try {
  const result = await agent.invoke(
    { messages: [new HumanMessage('A half-cent invoice is off by one cent. Find out why.')] },
    { recursionLimit: 100 },
  );
  const recalls = result.messages.filter(
    (message) => message.getType() === 'tool' && message.name === 'recall',
  );
  console.log(`\nAnswer: ${result.messages.at(-1)?.text}`);
  console.log(`Done after ${step} steps; ${events.length} compactions; ${recalls.length} recall.`);
  console.log(`The agent's state holds the compacted history: ${result.messages.length} messages.`);
} finally {
  await scripted?.close();
}

import { type CompactionEvent, createPipeline } from '@compaction/core';
import { CompactionSession } from '@compaction/openai-agents';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { Agent, type Model, OpenAIResponsesModel, run, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { type ScriptedModel, startScriptedModel } from './scripted-model.js';
import { tools } from './tools.js';

const contextWindow = 16_000;
const apiKey = process.env.OPENAI_API_KEY;
const online = apiKey !== undefined && apiKey !== '' && !process.argv.includes('--offline');
const number = (value: number) => value.toLocaleString('en-US');

// Offline, a local stand-in answers with a scripted plan; online, the real API decides what to call.
let scripted: ScriptedModel | undefined;
let client: OpenAI;
if (online) {
  client = new OpenAI({ apiKey });
  console.log(`Mode: online (${process.env.OPENAI_MODEL ?? 'gpt-4.1-mini'})`);
} else {
  // The SDK exports traces to the OpenAI API by default; offline there is nothing to send them to.
  setTracingDisabled(true);
  scripted = await startScriptedModel();
  client = new OpenAI({ baseURL: scripted.baseURL, apiKey: 'offline', maxRetries: 0 });
  console.log(`Mode: offline (scripted model on ${scripted.baseURL.replace(/\/v1$/, '')})`);
}
const model = new OpenAIResponsesModel(
  client,
  online ? (process.env.OPENAI_MODEL ?? 'gpt-4.1-mini') : 'scripted-model',
);

// Shorten old tool results first, and drop the oldest turns only when that is not enough.
const session = new CompactionSession({
  strategy: createPipeline([createToolResultTruncation({ keepRecent: 1 }), createSlidingWindow()]),
  budget: { contextWindow, reservedOutputTokens: 1_000, trigger: 0.6, target: 0.3 },
});
let calls = 0;
const events: CompactionEvent[] = [];
session.compactor.on('end', (event) => {
  events.push(event);
  console.log(
    `compacted before call ${calls + 1} (${event.trigger}, ${event.strategy}): ` +
      `${number(event.tokensBefore)} → ${number(event.tokensAfter)} tokens, ${event.messagesBefore} → ${event.messagesAfter} messages`,
  );
});

/** Prints what each model call sent (the input tokens the API reported) and the tools it called. */
const printing: Model = {
  async getResponse(request) {
    const response = await model.getResponse(request);
    calls++;
    const called = response.output
      .flatMap((item) => (item.type === 'function_call' ? [`${item.name}(${item.arguments})`] : []))
      .join(', ');
    console.log(
      `call ${String(calls).padStart(2)} sent ${number(response.usage.inputTokens).padStart(6)} tokens` +
        (called === '' ? '' : ` → ${called}`),
    );
    return response;
  },
  getStreamedResponse: (request) => model.getStreamedResponse(request),
};

const agent = new Agent({
  name: 'billing-investigator',
  instructions: 'You are a coding agent. Read the billing modules, run the tests, then explain the bug.',
  // The session compacts the history when a run starts; the wrapped model before every call inside a run.
  model: session.wrapModel(printing),
  tools,
});

try {
  const first = await run(agent, 'A half-cent invoice is off by one cent. Find out why.', {
    session,
    maxTurns: online ? 20 : 12,
  });
  console.log(`\nAnswer: ${first.finalOutput}\n`);
  const second = await run(agent, 'What is the fix?', { session, maxTurns: online ? 20 : 3 });
  console.log(`\nAnswer: ${second.finalOutput}`);
  console.log(`Done after ${calls} model calls; ${events.length} compactions.`);
  console.log(`The session holds ${session.storedItems().length} items.`);
} finally {
  await scripted?.close();
}

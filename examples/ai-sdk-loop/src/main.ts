import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { compactionPrepareStep } from '@compaction/ai-sdk';
import { type CompactionEvent, createPipeline } from '@compaction/core';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { plannedSteps, type ScriptedModel, startScriptedModel } from './scripted-model.js';
import { tools } from './tools.js';

const contextWindow = 16_000;
const apiKey = process.env.OPENAI_API_KEY;
const online = apiKey !== undefined && apiKey !== '' && !process.argv.includes('--offline');
const number = (value: number) => value.toLocaleString('en-US');

// Offline, a local stand-in answers with a scripted plan; online, the real API decides what to call.
let scripted: ScriptedModel | undefined;
let model: ReturnType<ReturnType<typeof createOpenAICompatible>>;
if (online) {
  const openai = createOpenAICompatible({
    name: 'openai',
    baseURL: 'https://api.openai.com/v1',
    apiKey,
    includeUsage: true,
  });
  model = openai(process.env.OPENAI_MODEL ?? 'gpt-4.1-mini');
  console.log(`Mode: online (${model.modelId})`);
} else {
  scripted = await startScriptedModel();
  model = createOpenAICompatible({ name: 'scripted', baseURL: scripted.baseURL, includeUsage: true })(
    'scripted-model',
  );
  console.log(`Mode: offline (scripted model on ${scripted.baseURL.replace(/\/v1$/, '')})`);
}

// Shorten old tool results first, and drop the oldest turns only when that is not enough.
const prepareStep = compactionPrepareStep({
  strategy: createPipeline([createToolResultTruncation({ keepRecent: 1 }), createSlidingWindow()]),
  budget: { contextWindow, reservedOutputTokens: 1_000, trigger: 0.6, target: 0.3 },
});
const events: CompactionEvent[] = [];
prepareStep.compactor.on('end', (event) => events.push(event));

const messages: ModelMessage[] = [
  {
    role: 'system',
    content: 'You are a coding agent. Read the billing modules, run the tests, then explain the bug.',
  },
  { role: 'user', content: 'A half-cent invoice is off by one cent. Find out why.' },
];

try {
  const result = await generateText({
    model,
    tools,
    messages,
    allowSystemInMessages: true,
    maxRetries: online ? 2 : 0,
    stopWhen: stepCountIs(online ? 20 : plannedSteps),
    prepareStep: async (options) => {
      const before = events.length;
      const prepared = await prepareStep(options);
      const event = events[before];
      if (event !== undefined) {
        const stages = Array.isArray(event.details?.stages) ? event.details.stages.length : 0;
        console.log(
          `compacted before step ${options.stepNumber + 1} (${event.trigger}, ${event.strategy}, ${stages} stages): ` +
            `${number(event.tokensBefore)} → ${number(event.tokensAfter)} tokens, ${event.messagesBefore} → ${event.messagesAfter} messages`,
        );
      }
      return prepared;
    },
    onStepFinish: (step) => {
      const calls = step.toolCalls
        .map((call) => `${call.toolName}(${JSON.stringify(call.input)})`)
        .join(', ');
      console.log(
        `step ${String(step.stepNumber + 1).padStart(2)} sent ${number(step.usage.inputTokens ?? 0).padStart(6)} tokens` +
          (calls === '' ? '' : ` → ${calls}`),
      );
    },
  });
  console.log(`\nAnswer: ${result.text}`);
  console.log(`Done after ${result.steps.length} steps; ${events.length} compactions.`);
  console.log(`The caller's messages are untouched: ${messages.length} messages.`);
} finally {
  await scripted?.close();
}

import { createAnthropic } from '@ai-sdk/anthropic';
import { type CompactionEvent, InMemoryCompactionStore } from '@compaction/core';
import { compactionInputProcessor, compactionRecallTool } from '@compaction/mastra';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import { type ScriptedModel, startScriptedModel } from './scripted-model.js';
import { readFile, turns } from './workspace.js';

const apiKey = process.env.ANTHROPIC_API_KEY;
const online = apiKey !== undefined && apiKey !== '' && !process.argv.includes('--offline');
const number = (value: number) => value.toLocaleString('en-US');

// Offline, a local stand-in answers with a scripted plan; online, the real API decides what to call.
let scripted: ScriptedModel | undefined;
let baseURL: string | undefined;
if (online) {
  console.log('Mode: online');
} else {
  scripted = await startScriptedModel();
  baseURL = scripted.baseURL;
  console.log(`Mode: offline (scripted model on ${baseURL.replace(/\/v1$/, '')})`);
}
const model = createAnthropic({ ...(baseURL === undefined ? {} : { baseURL }), apiKey: apiKey ?? 'offline' })(
  process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-5',
);

// Shorten old tool results first and drop the oldest turns only when that is not enough, by name; what is
// cleared is archived in the store, for the recall tool.
const store = new InMemoryCompactionStore();
const sessionId = 'invoice-bug';
const compaction = compactionInputProcessor({
  strategy: [{ name: 'tool-result-truncation', options: { keepRecent: 1 } }, 'sliding-window'],
  budget: { contextWindow: 16_000, reservedOutputTokens: 1_000, trigger: 0.6, target: 0.3 },
  store,
  archive: true,
  sessionId,
});
const events: CompactionEvent[] = [];
(await compaction.compactor()).on('end', (event) => events.push(event));

const agent = new Agent({
  name: 'billing-debugger',
  instructions: 'You are a coding agent. Read the billing modules you are asked to, then explain the bug.',
  model,
  tools: {
    read_file: createTool({
      id: 'read_file',
      description: 'Reads a file of the repository and returns its text.',
      inputSchema: z.object({ path: z.string().describe('Path from the repository root') }),
      execute: async ({ context }) => readFile(context.path),
    }),
    recall: compactionRecallTool({ store, sessionId }),
  },
  inputProcessors: [compaction],
});

// The application keeps the whole conversation; the agent is given it on every turn.
const history: Parameters<typeof agent.generate>[0] & unknown[] = [];
try {
  for (const [index, text] of turns.entries()) {
    const before = events.length;
    history.push({ role: 'user', content: text });
    const result = await agent.generate(history, { maxSteps: 6 });
    history.push(...(result.response.messages ?? []));
    const event = events[before];
    if (event !== undefined) {
      console.log(
        `compacted before turn ${index + 1} (${event.trigger}, ${event.strategy}): ` +
          `${number(event.tokensBefore)} → ${number(event.tokensAfter)} tokens, ${event.messagesBefore} → ${event.messagesAfter} messages`,
      );
    }
    const calls = result.steps.flatMap((step) => step.toolCalls.map((call) => call.payload.toolName));
    const sent =
      scripted === undefined
        ? ''
        : `, largest request ${number(Math.max(...scripted.requestTokens.slice(-result.steps.length)))} tokens`;
    console.log(`turn ${index + 1}: ${result.steps.length} steps (${calls.join(', ') || 'no tools'})${sent}`);
    if (index === turns.length - 1) console.log(`\nAnswer: ${result.text}`);
  }
  console.log(`Done after ${turns.length} turns; ${events.length} compactions.`);
  console.log(`The application's history is whole: ${history.length} messages.`);
} finally {
  await scripted?.close();
}

import { createRecallTool, type RecallRequest, type RecallToolSettings } from '@compaction/recall';
import { jsonSchema, type Tool, tool } from 'ai';

/**
 * The `recall` tool as an AI SDK tool, over the archive of one conversation: give it to `generateText`,
 * `streamText` or an agent under the key `recall`, beside a compaction whose compactor archives (`archive:
 * true` with a `store`) under the same `sessionId`. The placeholders of that compaction name handles the model
 * passes to it; it answers with the archived text, or with a few words on what to ask instead (a handle it
 * does not know, unusable arguments). Answers are bounded by `maximumCharacters` and say when they were cut.
 *
 * ```ts
 * const store = new InMemoryCompactionStore();
 * const prepareStep = compactionPrepareStep({ strategy, budget, store, archive: true, sessionId: 'task-7' });
 * await generateText({ model, prepareStep, tools: { ...tools, recall: compactionRecallTool({ store, sessionId: 'task-7' }) }, messages });
 * ```
 */
export function compactionRecallTool(settings: RecallToolSettings): Tool<RecallRequest, string> {
  const recall = createRecallTool(settings);
  return tool({
    description: recall.description,
    // The tool checks its arguments itself and answers a model that got them wrong in words it can act on.
    inputSchema: jsonSchema<RecallRequest>(recall.inputSchema),
    execute: async (input) => (await recall.execute(input)).text,
  });
}

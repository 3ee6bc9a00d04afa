import { createRecallTool, type RecallToolSettings } from '@compaction/recall';
import { type FunctionTool, type JsonSchemaDefinition, tool } from '@openai/agents';

/**
 * The parameters of the tool: the SDK types a non-strict schema as one open to other properties; the recall
 * schema closes them, which the SDK passes on as it is.
 */
export type RecallToolParameters = Extract<JsonSchemaDefinition['schema'], { additionalProperties: true }>;

/**
 * The `recall` tool as an Agents SDK function tool, over the archive of one session: add it to the agent's
 * `tools` beside a {@link CompactionSession} whose compactor archives (`archive: true` with a `store`), with
 * the session's id. The placeholders of that compaction name handles the model passes to it; it answers with
 * the archived text, or with a few words on what to ask instead. Answers are bounded by `maximumCharacters`.
 *
 * ```ts
 * const store = new InMemoryCompactionStore();
 * const session = new CompactionSession({ strategy, budget, store, archive: true, sessionId: 'task-7' });
 * const agent = new Agent({ name: 'coder', tools: [...tools, compactionRecallTool({ store, sessionId: 'task-7' })] });
 * ```
 */
export function compactionRecallTool(
  settings: RecallToolSettings,
): FunctionTool<unknown, RecallToolParameters, string> {
  const recall = createRecallTool(settings);
  return tool({
    name: recall.name,
    description: recall.description,
    // Optional arguments (a line range, a pattern) do not fit strict mode; the tool checks its arguments
    // itself and answers a model that got them wrong in words it can act on.
    parameters: recall.inputSchema as unknown as RecallToolParameters,
    strict: false,
    execute: async (input) => (await recall.execute(input)).text,
  });
}

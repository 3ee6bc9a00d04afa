import type { JSONObject } from '@compaction/core';
import { createRecallTool, type RecallToolSettings } from '@compaction/recall';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';

/**
 * The `recall` tool as a Mastra tool, over the archive of one session: give it to the agent under the key
 * `recall`, beside a {@link compactionInputProcessor} whose compactor archives (`archive: true` with a `store`)
 * under the same `sessionId`. The placeholders of that compaction name handles the model passes to it; it
 * answers with the archived text, or with a few words on what to ask instead (a handle it does not know,
 * unusable arguments). Answers are bounded by `maximumCharacters` and say when they were cut.
 */
export function compactionRecallTool(settings: RecallToolSettings) {
  const recall = createRecallTool(settings);
  return createTool({
    id: 'recall',
    description: recall.description,
    inputSchema: recallArguments(recall.inputSchema),
    execute: async ({ context }) => {
      // The model passes null for an argument it does not use (see recallArguments).
      const given = Object.entries(context).filter(([, value]) => value !== null && value !== undefined);
      return (await recall.execute(Object.fromEntries(given))).text;
    },
  });
}

/**
 * The recall tool's arguments as a Zod schema, each present and null when unused. Mastra 0.24 turns a Zod 4
 * optional field into an empty schema that it then requires for OpenAI models, so no call could pass; a
 * nullable one it sends and checks as it is, for every provider. Loose on purpose (types only): the tool checks
 * its arguments itself and answers a model that got them wrong in words it can act on.
 */
function recallArguments(schema: JSONObject) {
  const properties = (schema.properties ?? {}) as Record<string, { type?: string; description?: string }>;
  const required = new Set((schema.required ?? []) as string[]);
  const shape = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => {
      const type = property.type === 'string' ? z.string() : z.number();
      const field = required.has(name) ? type : z.union([type, z.null()]);
      return [name, field.describe(property.description ?? name)];
    }),
  );
  return z.object(shape);
}

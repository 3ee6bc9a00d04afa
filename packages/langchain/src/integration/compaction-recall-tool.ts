import type { CompactionStore } from '@compaction/core';
import { createRecallTool } from '@compaction/recall';
import { tool } from '@langchain/core/tools';
import { sessionOf } from './compaction-settings.js';

/** Settings of {@link compactionRecallTool}. */
export interface CompactionRecallToolSettings {
  /** The store the compactor archives into. */
  store: CompactionStore;
  /** The session whose archive it reads. Default: the run's `thread_id`, else `default`, as the middleware. */
  sessionId?: string;
  /** Most characters of archived text in one answer. Default 20,000. */
  maximumCharacters?: number;
}

/**
 * The `recall` tool as a LangChain tool, over the archive of the run's session: the placeholders of a
 * compaction that archived (`archive: true` with a `store`) name handles the model passes to it, and it
 * answers with the archived text, or with a few words on what to ask instead. `compactionMiddleware` offers it
 * to the agent by itself; give it to a LangGraph model of your own with `bindTools`.
 *
 * ```ts
 * const recall = compactionRecallTool({ store, sessionId: 'task-7' });
 * ```
 */
export function compactionRecallTool(settings: CompactionRecallToolSettings) {
  const { store } = settings;
  const maximum =
    settings.maximumCharacters === undefined ? {} : { maximumCharacters: settings.maximumCharacters };
  // Validates the settings now, so a wrong maximum fails where the tool is made.
  const definition = createRecallTool({ store, sessionId: settings.sessionId ?? 'default', ...maximum });
  return tool(
    async (input: unknown, config) => {
      const sessionId = sessionOf(settings.sessionId, config?.configurable);
      const recall =
        sessionId === (settings.sessionId ?? 'default')
          ? definition
          : createRecallTool({ store, sessionId, ...maximum });
      return (await recall.execute(input)).text;
    },
    {
      name: definition.name,
      description: definition.description,
      // The tool checks its arguments itself and answers a model that got them wrong in words it can act on.
      schema: definition.inputSchema as never,
    },
  );
}

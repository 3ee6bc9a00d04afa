import type { Compactor } from '@compaction/core';
import type { Processor } from '@mastra/core/processors';
import type { MastraMessage } from '../mastra-types.js';
import type { CompactionProcessorSettings } from './compaction-settings.js';
import { createMastraCompaction } from './mastra-compaction.js';

/** A Mastra input processor that compacts, and the compactor it uses (to subscribe to its events). */
export interface CompactionInputProcessor extends Processor {
  readonly name: 'compaction';
  processInput(args: { messages: MastraMessage[] }): Promise<MastraMessage[]>;
  /** The compactor, once its strategies are resolved. */
  compactor(): Promise<Compactor>;
}

/**
 * Creates a Mastra input processor that keeps the messages an agent call is given within the budget: before the
 * call it counts them and, over the trigger, compacts them with the strategy (verified: tool calls and their
 * results kept together, the task and the latest user message kept), and the agent sends the compacted
 * history instead. Give it to an agent as `inputProcessors: [processor]`.
 *
 * Mastra hands input processors the messages the call was given (with memory, only the new ones: compact the
 * remembered ones with {@link CompactionMemoryProcessor}). An application that gives the agent the whole history
 * on every call gets the compacted history in place of the messages it covered on later calls, so it is not
 * compacted again until the trigger fires again. The caller's messages are never changed.
 *
 * ```ts
 * const agent = new Agent({ name, instructions, model, tools, inputProcessors: [compactionInputProcessor({ strategy: 'tool-result-truncation', budget })] });
 * ```
 */
export function compactionInputProcessor(settings: CompactionProcessorSettings): CompactionInputProcessor {
  const compaction = createMastraCompaction(settings);
  return {
    name: 'compaction',
    compactor: compaction.compactor,
    processInput: ({ messages }) => compaction.compact(messages),
  };
}

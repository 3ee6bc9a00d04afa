import type { Compactor } from '@compaction/core';
import { toMastraMessages } from '../convert/to-mastra.js';
import type { MastraMessage } from '../mastra-types.js';
import { type CompactionProcessorSettings, resolveCompactor } from './compaction-settings.js';
import { ConversationMemory } from './conversation-memory.js';

/** Compaction of Mastra messages, call after call: what both processors run. */
export interface MastraCompaction {
  /** The compactor, once its strategies are resolved. */
  compactor(): Promise<Compactor>;
  /** The messages to send instead of `messages`: the same array when nothing was compacted. */
  compact(messages: MastraMessage[]): Promise<MastraMessage[]>;
}

/**
 * Counts the messages of a call and compacts them over the trigger. The compacted history stands in for the
 * messages it covered on later calls of the same conversation (see {@link ConversationMemory}); messages
 * compaction left alone are handed back as the caller's own objects.
 */
export function createMastraCompaction(settings: CompactionProcessorSettings): MastraCompaction {
  let compactor: Promise<Compactor> | undefined;
  const ready = (): Promise<Compactor> => {
    compactor ??= resolveCompactor(settings);
    return compactor;
  };
  const memory = new ConversationMemory();
  const options = settings.sessionId === undefined ? {} : { sessionId: settings.sessionId };
  return {
    compactor: ready,
    async compact(messages) {
      const view = memory.view(messages, settings.conversationId);
      const result = await (await ready()).prepare(view.messages, options);
      if (result.compacted) memory.commit(view, result.messages);
      if (!result.compacted && !view.replaced) return messages;
      return toMastraMessages(result.messages, {
        reuse: (group) => {
          const origin = view.origins.get(group[0]!);
          const whole =
            origin !== undefined &&
            origin.pieces.length === group.length &&
            origin.pieces.every((piece, index) => piece === group[index]);
          return whole ? origin.source : undefined;
        },
      });
    },
  };
}

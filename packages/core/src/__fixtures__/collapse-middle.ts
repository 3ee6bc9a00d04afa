import { BudgetUnreachableError } from '../errors/budget-unreachable-error.js';
import { isPinned, withCompactionMetadata } from '../messages/compaction-metadata.js';
import type { AssistantMessage, Message } from '../messages/message.js';
import { latestUserMessageIndex, openingIndexes } from '../messages/message-content.js';
import type { CompactionStrategy } from '../specs/compaction-strategy-v1.js';

/**
 * Test strategy: keeps system and pinned messages, the opening and everything from the newest
 * user message on; replaces the rest with one marked assistant note.
 */
export function collapseMiddle(name = 'collapse-middle'): CompactionStrategy {
  return {
    specificationVersion: 'v1',
    name,
    async compact({ messages, counter, budget, round }) {
      const opening = new Set(openingIndexes(messages));
      const latest = latestUserMessageIndex(messages);
      const kept: Message[] = [];
      let removed = 0;
      messages.forEach((message, index) => {
        if (message.role === 'system' || isPinned(message) || opening.has(index) || index >= latest)
          kept.push(message);
        else removed++;
      });
      if (removed > 0) {
        const note: AssistantMessage = {
          role: 'assistant',
          content: [{ type: 'text', text: `[${removed} messages removed]` }],
        };
        kept.splice(
          kept.indexOf(messages[Math.max(-1, ...opening)]!) + 1,
          0,
          withCompactionMetadata(note, { kind: 'marker', round, strategy: name }),
        );
      }
      const tokens = counter.count(kept);
      if (tokens > budget.limit)
        throw new BudgetUnreachableError({
          target: budget.target,
          best: tokens,
          limit: budget.limit,
          reason: 'kept messages too large',
        });
      return { messages: kept, summary: `${removed} removed` };
    },
  };
}

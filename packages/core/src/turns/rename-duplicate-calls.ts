import { withCompactionMetadata } from '../messages/compaction-metadata.js';
import type { Message } from '../messages/message.js';
import type { Repair } from './repair.js';

/**
 * Gives every tool call a unique id. A call that reuses an earlier call's id is renamed `<id>#<n>`, and the
 * results after it that carry that id are renamed with it, so each result keeps answering the nearest call
 * before it. Recorded runs do reuse ids, and providers reject a request that repeats one.
 */
export function renameDuplicateCalls(messages: readonly Message[], repairs: Repair[]): Message[] {
  const seen = new Set<string>();
  const aliases = new Map<string, string>();
  const uses = new Map<string, number>();
  return messages.map((message, index) => {
    if (message.role === 'assistant') {
      let changed = false;
      const content = message.content.map((part) => {
        if (part.type !== 'tool-call') return part;
        const id = part.toolCallId;
        if (!seen.has(id)) {
          seen.add(id);
          aliases.delete(id);
          return part;
        }
        const count = (uses.get(id) ?? 1) + 1;
        uses.set(id, count);
        const alias = `${id}#${count}`;
        aliases.set(id, alias);
        repairs.push({ kind: 'renamed-duplicate-call', toolCallId: id, index });
        changed = true;
        return { ...part, toolCallId: alias };
      });
      return changed ? withCompactionMetadata(message, { repair: 'edited' }, content) : message;
    }
    if (message.role === 'tool' && message.content.some((part) => aliases.has(part.toolCallId))) {
      const content = message.content.map((part) => {
        const alias = aliases.get(part.toolCallId);
        return alias === undefined ? part : { ...part, toolCallId: alias };
      });
      return withCompactionMetadata(message, { repair: 'edited' }, content);
    }
    return message;
  });
}

import {
  type ArchivedItem,
  type CompactionStrategy,
  type Message,
  type ToolResultPart,
  withCompactionMetadata,
} from '@compaction/core';
import { archiveItem, recallHint } from '@compaction/strategy-kit';

/**
 * A small strategy for testing recall end to end: it clears the text output of every tool result but the
 * newest message's, and, when the Compactor asks it to archive, archives each cleared output under a handle
 * that its placeholder names (`[read_file output, 2,141 characters, cleared: recall "<handle>"]`). Results
 * already cleared, and outputs with parts other than text, are left alone. It does not aim for the target.
 */
export function archivingMaskStrategy(): CompactionStrategy {
  return {
    specificationVersion: 'v1',
    name: 'archiving-mask',
    async compact({ messages, round, archive }) {
      const archived: ArchivedItem[] = [];
      const last = messages.length - 1;
      const output = messages.map((message, index): Message => {
        if (message.role !== 'tool' || index === last) return message;
        if (!message.content.some(isClearable)) return message;
        const content = message.content.map((part) => {
          if (!isClearable(part)) return part;
          const text = part.output as string;
          const item = archiveItem(`${part.toolName} output`, text);
          if (archive === true) archived.push(item);
          const where = archive === true ? `: ${recallHint(item)}` : '';
          const characters = text.length.toLocaleString('en-US');
          return { ...part, output: `[${item.label}, ${characters} characters, cleared${where}]` };
        });
        return withCompactionMetadata(
          message,
          { kind: 'modified', round, strategy: 'archiving-mask' },
          content,
        );
      });
      return archive === true ? { messages: output, archived } : { messages: output };
    },
  };
}

/** A text output not cleared before. */
function isClearable(part: ToolResultPart): boolean {
  return typeof part.output === 'string' && !/^\[.* characters, cleared/.test(part.output);
}

import {
  type CompactionOutput,
  type CompactionStrategy,
  type Message,
  type ToolResultPart,
  withCompactionMetadata,
} from '@compaction/core';

/** Settings of {@link createToolResultClearing}. */
export interface ToolResultClearingSettings {
  /** The strategy's name in reports. */
  name: string;
  /** The newest tool results left as they are. */
  keepRecent: number;
  /** What a cleared result reads. */
  placeholder: string;
}

/**
 * A reference policy, not a Compaction strategy: every time it runs it replaces the output of every tool
 * result but the `keepRecent` newest with a placeholder, whatever the budget. This is what Anthropic's
 * context editing (`clear_tool_uses`, default: keep 3 tool uses) and observation masking with a window of
 * the newest observations both do; they differ in when they run, which the simulation's trigger sets.
 * Results cleared before stay the same objects, so they do not break the prompt cache again.
 */
export function createToolResultClearing(settings: ToolResultClearingSettings): CompactionStrategy {
  const { name, keepRecent, placeholder } = settings;
  return {
    specificationVersion: 'v1',
    name,
    async compact(input): Promise<CompactionOutput> {
      const resultCount = input.messages.reduce(
        (count, message) => count + (message.role === 'tool' ? message.content.length : 0),
        0,
      );
      let toClear = Math.max(0, resultCount - keepRecent);
      let cleared = 0;
      const messages = input.messages.map((message): Message => {
        if (message.role !== 'tool' || toClear === 0) return message;
        let changed = false;
        const content = message.content.map((part): ToolResultPart => {
          if (toClear === 0) return part;
          toClear--;
          if (part.output === placeholder) return part;
          changed = true;
          cleared++;
          return { ...part, output: placeholder };
        });
        if (!changed) return message;
        return withCompactionMetadata(
          { ...message, content },
          { kind: 'modified', round: input.round, strategy: name },
        );
      });
      return { messages, details: { cleared } };
    },
  };
}

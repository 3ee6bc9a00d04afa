import type { Compactor } from '@compaction/core';
import { MessageList } from '@mastra/core/agent';
import type { CoreMessage } from '@mastra/core/llm';
import { MemoryProcessor } from '@mastra/core/memory';
import type { CompactionProcessorSettings } from './compaction-settings.js';
import { createMastraCompaction, type MastraCompaction } from './mastra-compaction.js';

/**
 * A Mastra memory processor that compacts the messages an agent remembers, with the strategies of Compaction:
 * give it to `new Memory({ processors: [new CompactionMemoryProcessor(settings)] })`. Where Mastra's
 * `TokenLimiter` drops the oldest messages, the task with them, it keeps the task and the latest request, keeps
 * tool calls with their results, and shortens or summarizes before it drops.
 *
 * Mastra hands memory processors the remembered messages (not the new ones, nor the system prompt, which the
 * budget's trigger should leave room for) in its format 1, and takes the same back.
 */
export class CompactionMemoryProcessor extends MemoryProcessor {
  private readonly compaction: MastraCompaction;

  constructor(settings: CompactionProcessorSettings) {
    super({ name: 'compaction' });
    this.compaction = createMastraCompaction(settings);
  }

  /** The compactor, once its strategies are resolved (to subscribe to its events). */
  compactor(): Promise<Compactor> {
    return this.compaction.compactor();
  }

  override async process(messages: CoreMessage[]): Promise<CoreMessage[]> {
    // Mastra passes format 1 messages (typed as CoreMessage): read as format 2, as input processors get them.
    const remembered = new MessageList().add(messages as never, 'memory').get.all.v2();
    const compacted = await this.compaction.compact(remembered);
    if (compacted === remembered) return messages;
    return new MessageList().add(compacted, 'memory').get.all.v1() as unknown as CoreMessage[];
  }
}

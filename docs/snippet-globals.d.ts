// Names the documentation's code blocks use without defining them: the things a reader already has.
import type { CompactionConfig, CompactionStrategy, Message } from '@compaction/core';

declare global {
  /** The conversation so far. */
  const history: Message[];
  /** The same conversation, as an application holds it. */
  const messages: Message[];
  /** Any compaction strategy. */
  const strategy: CompactionStrategy;
  /** A parsed compaction.config.json. */
  const config: CompactionConfig;
  /** The application's own model call. */
  function callModel(messages: Message[]): Promise<{ usage: { input_tokens: number } }>;
}

import { createPipeline, type Message, type NativeCompaction } from '@compaction/core';
import { createPruning } from '@compaction/strategy-pruning';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';

/**
 * A native compaction standing in for a provider's: one user message whose part holds an opaque "block"
 * naming how many messages it replaced, as the provider packages keep a compaction block verbatim.
 */
export function countingCompaction(settings: { supported?: boolean } = {}): NativeCompaction & {
  calls: Message[][];
} {
  const calls: Message[][] = [];
  return {
    provider: 'test',
    calls,
    supported: () => settings.supported ?? true,
    async compact({ messages }) {
      calls.push(messages);
      const replaced = messages.filter((message) => message.role !== 'system').length;
      const block = { type: 'compaction', content: `Summary of ${replaced} messages.` };
      return [
        { role: 'user', content: [{ type: 'text', text: block.content, metadata: { test: { block } } }] },
      ];
    },
  };
}

/** The local fallback the tests use: truncation, then pruning. */
export function localFallback() {
  return createPipeline([createToolResultTruncation(), createPruning()]);
}

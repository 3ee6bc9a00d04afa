import { isPinned, type Message } from '@compaction/core';
import { shortenToolResult } from '@compaction/strategy-kit';
import type { FloorOf } from '@compaction/testing';
import { describeTargetFill } from '@compaction/testing/vitest';
import { maskResult } from './shorten-result.js';
import { createToolResultTruncation } from './tool-result-truncation.js';

/**
 * What truncation can never get below with every result old and over the cap: each unpinned result cut to
 * nothing but its note (or its mask), the calls and every other message whole.
 */
const floorWith =
  (cut: typeof shortenToolResult): FloorOf =>
  (messages, counter, settings) =>
    counter.estimate(
      messages.map((message): Message => {
        if (message.role !== 'tool' || isPinned(message)) return message;
        const content = message.content.map((part) => cut(part, 0, 'floor', settings?.archive === true));
        return { ...message, content };
      }),
    );

for (const archive of [false, true]) {
  const runs = archive ? { archive, numRuns: 100 } : {};
  describeTargetFill('tool-result-truncation', {
    strategy: () => createToolResultTruncation({ keepRecent: 0, maxResultTokens: 0 }),
    floor: floorWith(shortenToolResult),
    ...runs,
  });
  describeTargetFill('tool-result-truncation masking', {
    strategy: () => createToolResultTruncation({ mode: 'mask', keepRecent: 0, maxResultTokens: 0 }),
    floor: floorWith((part, _keep, _strategy, archiving) => maskResult(part, 99_999_999, archiving)),
    ...runs,
  });
}

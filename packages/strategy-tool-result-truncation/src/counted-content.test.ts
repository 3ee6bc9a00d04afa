import { createTokenCounter, type Message } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { createToolResultTruncation } from './tool-result-truncation.js';

// One tool message with a huge result and two small ones (target-fill seed 2050750331 on Node 22): the target
// is met by the estimate after the huge one is masked, the count says not yet, and the small ones are masked
// after that count. They must not change the array the counted message holds, or the counter's memoized
// count of that message goes stale (and what is returned is counted as what it was before).
const messages: Message[] = [
  { role: 'system', content: [{ type: 'text', text: 'the' }] },
  { role: 'user', content: [{ type: 'text', text: 'the' }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'the' },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'read_file', input: { path: 'src/a.ts' } },
      { type: 'tool-call', toolCallId: 'call_2', toolName: 'search', input: {} },
      { type: 'tool-call', toolCallId: 'call_3', toolName: 'search', input: { path: 'src/a.ts' } },
    ],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'call_1', toolName: 'read_file', output: 'the '.repeat(6358) },
      {
        type: 'tool-result',
        toolCallId: 'call_2',
        toolName: 'search',
        output: 'path/to/module.py the the the the',
      },
      {
        type: 'tool-result',
        toolCallId: 'call_3',
        toolName: 'search',
        output: [{ type: 'text', text: 'the the path/to/module.py the the the the the the 日本語 the' }],
      },
    ],
  },
  { role: 'user', content: [{ type: 'text', text: 'the' }] },
];

describe('tool-result truncation counts what it returns', () => {
  it('masks past a count without leaving that count stale', async () => {
    const strategy = createToolResultTruncation({ mode: 'mask', keepRecent: 0, maxResultTokens: 0 });
    for (let target = 120; target <= 160; target += 4) {
      const counter = createTokenCounter();
      const output = await strategy.compact({
        messages,
        counter,
        budget: { limit: 1_000_000, target },
        trigger: 'auto',
        round: 1,
      });
      const fresh = createTokenCounter();
      expect(counter.count(output.messages), `target ${target}`).toBe(fresh.count(output.messages));
    }
  });
});

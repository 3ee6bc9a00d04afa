import { createPipeline, InMemoryCompactionStore } from '@compaction/core';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { deepFreeze } from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import { fileText } from '../__fixtures__/coding-agent.js';
import type { MastraMessage } from '../mastra-types.js';
import { compactionInputProcessor } from './compaction-input-processor.js';

let created = 0;
function message(role: 'user' | 'assistant', parts: MastraMessage['content']['parts']): MastraMessage {
  created++;
  return {
    id: `message-${created}`,
    role,
    createdAt: new Date(created * 1000),
    content: { format: 2, parts },
  };
}

/** A user request and an assistant step that reads a file, as Mastra gives them to input processors. */
function exchange(turn: number): MastraMessage[] {
  const path = `src/file-${turn}.ts`;
  return [
    message('user', [{ type: 'text', text: `Turn ${turn}: read ${path}` }]),
    message('assistant', [
      {
        type: 'tool-invocation',
        toolInvocation: {
          state: 'result',
          toolCallId: `call_${turn}`,
          toolName: 'read_file',
          args: { path },
          result: fileText(path),
        },
      },
      { type: 'step-start' },
      { type: 'text', text: `Read ${path}.` },
    ]),
  ];
}

const budget = {
  contextWindow: 16_000,
  reservedOutputTokens: 1_000,
  safetyMargin: 0,
  trigger: 0.6,
  target: 0.3,
};
const strategy = createPipeline([createToolResultTruncation({ keepRecent: 1 }), createSlidingWindow()]);

describe('compactionInputProcessor', () => {
  it('hands back the same messages while under the trigger', async () => {
    const processor = compactionInputProcessor({ strategy, budget });
    const messages = deepFreeze(exchange(1));
    expect(await processor.processInput({ messages })).toBe(messages);
  });

  it('compacts over the trigger, keeps unchanged messages as they came, and applies the result on the next call', async () => {
    const processor = compactionInputProcessor({ strategy, budget, store: new InMemoryCompactionStore() });
    let compactions = 0;
    (await processor.compactor()).on('end', () => compactions++);
    const messages = deepFreeze(Array.from({ length: 5 }, (_, index) => exchange(index + 1)).flat());
    const compacted = await processor.processInput({ messages });
    expect(compactions).toBe(1);
    expect(JSON.stringify(compacted).length).toBeLessThan(JSON.stringify(messages).length / 2);
    // The task and the newest exchange are the caller's own objects.
    expect(compacted[0]).toBe(messages[0]);
    expect(compacted.at(-1)).toBe(messages.at(-1));
    // Dated in order, as Mastra sorts what it is given by date.
    const dates = compacted.map((item) => item.createdAt.getTime());
    expect(dates).toEqual(dates.toSorted((first, second) => first - second));

    // Mastra hands the next call the whole history again, with new ids and dates.
    const next = [...messages, ...exchange(6)].map((item, index) => ({
      ...item,
      id: `again-${index}`,
      createdAt: new Date(10_000_000 + index),
    }));
    const again = await processor.processInput({ messages: next });
    expect(compactions).toBe(1);
    expect(again.length).toBe(compacted.length + 2);
    expect(again.at(-1)).toBe(next.at(-1));
    // Messages handed back as they came carry this call's dates, those compaction rebuilt the earlier call's:
    // all go out in order, or Mastra would move the rebuilt ones ahead of the task.
    const againDates = again.map((item) => item.createdAt.getTime());
    expect(againDates).toEqual(againDates.toSorted((first, second) => first - second));
    expect(again[0]).toBe(next[0]);
  });
});

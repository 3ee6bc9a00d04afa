import type { Message } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { fromNativeCompaction } from './native-compaction-start.js';

const isCompaction = (part: Message['content'][number]) => part.metadata?.provider === 'compaction';
const compactionPart = (text: string) => ({
  type: 'text' as const,
  text,
  metadata: { provider: 'compaction' },
});

const system: Message = { role: 'system', content: [{ type: 'text', text: 'You are a coding agent.' }] };
const task: Message = { role: 'user', content: [{ type: 'text', text: 'Fix the test.' }] };
const first: Message = {
  role: 'assistant',
  content: [compactionPart('first summary'), { type: 'text', text: 'On it.' }],
};
const middle: Message = { role: 'user', content: [{ type: 'text', text: 'Go on.' }] };
const second: Message = {
  role: 'assistant',
  content: [
    { type: 'text', text: 'Reading.' },
    compactionPart('second summary'),
    { type: 'text', text: 'Done.' },
  ],
};
const last: Message = { role: 'user', content: [{ type: 'text', text: 'Thanks.' }] };

describe('fromNativeCompaction', () => {
  it('returns the list itself when it holds no compaction', () => {
    const messages = [system, task, middle];
    expect(fromNativeCompaction(messages, isCompaction)).toBe(messages);
  });

  it('starts from the latest compaction, keeping system messages and the messages after it', () => {
    const result = fromNativeCompaction([system, task, first, middle, second, last], isCompaction);
    expect(result).toEqual([system, { role: 'assistant', content: second.content.slice(1) }, last]);
    expect(result[0]).toBe(system);
    expect(result[2]).toBe(last);
    expect(second.content).toHaveLength(3);
  });

  it('keeps the message holding the compaction as it is when the compaction opens it', () => {
    const result = fromNativeCompaction([system, task, first, middle], isCompaction);
    expect(result).toEqual([system, first, middle]);
    expect(result[1]).toBe(first);
    const already = [system, first, middle];
    expect(fromNativeCompaction(already, isCompaction)).toBe(already);
  });
});

describe('fromNativeCompaction with a compacted window', () => {
  const summary = (message: Message): Message => ({
    ...message,
    metadata: { compaction: { kind: 'summary' } },
  });
  const windowUser = summary({ role: 'user', content: [{ type: 'text', text: 'Fix the test.' }] });
  const windowItem = summary({ role: 'assistant', content: [compactionPart('window')] });
  const answer: Message = { role: 'assistant', content: [{ type: 'text', text: 'Fixed.' }] };

  it('keeps the messages that came with the compaction in the window, unpruned', () => {
    const messages = [system, task, first, windowUser, windowItem, middle, answer];
    expect(fromNativeCompaction(messages, isCompaction)).toEqual([
      system,
      windowUser,
      windowItem,
      middle,
      answer,
    ]);
  });

  it('drops the messages before a compaction that is not marked as a window', () => {
    const unmarked = { role: 'assistant' as const, content: [compactionPart('server side')] };
    const messages = [system, windowUser, unmarked, middle];
    expect(fromNativeCompaction(messages, isCompaction)).toEqual([system, unmarked, middle]);
  });
});

import { compactionMetadataOf, type Message, withCompactionMetadata } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { joinSpans } from './join-spans.js';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });
const tool = (toolCallId: string): Message => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId, toolName: 'search', output: 'found' }],
});

describe('joinSpans', () => {
  it('marks the span and the tool messages right after it, and nothing else', () => {
    const messages = [user('a'), assistant('b'), user('c'), assistant('d'), tool('1'), tool('2'), user('e')];
    const joined = joinSpans(messages, [{ first: 2, end: 4 }]);
    const marked = joined.flatMap((message, index) =>
      compactionMetadataOf(message)?.joinsPrevious === true ? [index] : [],
    );
    expect(marked).toEqual([2, 3, 4, 5]);
  });

  it('keeps unmarked and already marked messages as the same objects, and leaves the input unchanged', () => {
    const marked = withCompactionMetadata(assistant('b'), { joinsPrevious: true });
    const messages = [user('a'), marked, user('c')];
    const copy = structuredClone(messages);
    const joined = joinSpans(messages, [{ first: 1, end: 3 }]);
    expect(joined[0]).toBe(messages[0]);
    expect(joined[1]).toBe(marked);
    expect(joined[2]).not.toBe(messages[2]);
    expect(joined[2]).toEqual({ ...messages[2], metadata: { compaction: { joinsPrevious: true } } });
    expect(messages).toEqual(copy);
    expect(joined).not.toBe(messages);
  });

  it('returns an equal copy when there is no span', () => {
    const messages = [user('a'), assistant('b')];
    expect(joinSpans(messages, [])).toEqual(messages);
  });
});

import { describe, expect, it } from 'vitest';
import { compactionMetadataOf, withCompactionMetadata } from './compaction-metadata.js';
import type { Message, ToolMessage } from './message.js';

describe('withCompactionMetadata', () => {
  const result = (output: string): ToolMessage['content'][number] => ({
    type: 'tool-result',
    toolCallId: 'a',
    toolName: 'bash',
    output,
  });

  it('returns a marked copy, keeping every other field and the content unless new content is given', () => {
    const message = Object.freeze({
      role: 'tool',
      id: 'm1',
      content: Object.freeze([result('long output')]),
      metadata: Object.freeze({ provider: 'x', compaction: Object.freeze({ pinned: true }) }),
    }) as unknown as ToolMessage;
    const marked = withCompactionMetadata(message, { kind: 'modified', round: 2 });
    expect(marked).toEqual({
      role: 'tool',
      id: 'm1',
      content: message.content,
      metadata: { provider: 'x', compaction: { pinned: true, kind: 'modified', round: 2 } },
    });
    expect(marked.content).toBe(message.content);
    const content = [result('short')];
    const changed = withCompactionMetadata(message, { kind: 'modified' }, content);
    expect(changed.content).toBe(content);
    expect(changed.id).toBe('m1');
    expect(compactionMetadataOf(changed)).toEqual({ pinned: true, kind: 'modified' });
    expect(compactionMetadataOf(message)).toEqual({ pinned: true });
  });

  it('marks a message without metadata, and keeps fields it does not know', () => {
    const message = { role: 'user', content: [{ type: 'text', text: 'hi' }], extra: 1 } as Message;
    const marked = withCompactionMetadata(message, { kind: 'marker', strategy: 's' });
    expect(marked).toEqual({ ...message, metadata: { compaction: { kind: 'marker', strategy: 's' } } });
    expect(message).not.toHaveProperty('metadata');
  });
});

describe('compactionMetadataOf on messages read back from a provider format', () => {
  const text = (role: 'user' | 'assistant', value: string) => ({
    role,
    content: [{ type: 'text', text: value }],
  });

  it('knows a removal marker by its text, with its count, and a summary by its first line', () => {
    expect(
      compactionMetadataOf(
        text('user', '[12 earlier messages skipped to fit the context window.]') as Message,
      ),
    ).toEqual({ kind: 'marker', removedMessages: 12 });
    expect(
      compactionMetadataOf(text('user', '[1 earlier message removed to save space.]') as Message),
    ).toEqual({
      kind: 'marker',
      removedMessages: 1,
    });
    const summary = '[Summary of 8 earlier messages, compaction round 3; the task is above.]\n\nBody.';
    expect(compactionMetadataOf(text('assistant', summary) as Message)).toEqual({
      kind: 'summary',
      round: 3,
      summarizedMessages: 8,
    });
  });

  it('reads nothing into a user message that only mentions such a text, or holds more than it', () => {
    expect(
      compactionMetadataOf(text('user', 'Why were [3 earlier messages skipped]?') as Message),
    ).toBeUndefined();
    const twoParts = {
      role: 'user',
      content: [
        { type: 'text', text: '[3 earlier messages skipped to fit the context window.]' },
        { type: 'text', text: 'Go on.' },
      ],
    } as Message;
    expect(compactionMetadataOf(twoParts)).toBeUndefined();
    expect(compactionMetadataOf({ role: 'user' } as unknown as Message)).toBeUndefined();
  });
});

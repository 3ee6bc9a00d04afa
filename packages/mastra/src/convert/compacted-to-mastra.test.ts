import { compactionMetadataOf, type Message, withCompactionMetadata } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import type { MastraMessage } from '../mastra-types.js';
import { fromMastra } from './from-mastra.js';
import { toMastra } from './to-mastra.js';

const assistant: MastraMessage = {
  id: 'answer',
  role: 'assistant',
  createdAt: new Date('2026-01-01T00:00:02Z'),
  content: {
    format: 2,
    parts: [
      {
        type: 'tool-invocation',
        toolInvocation: {
          state: 'result',
          toolCallId: 'call_1',
          toolName: 'list',
          args: {},
          result: { files: ['a', 'b'] },
        },
      },
      { type: 'step-start' },
      { type: 'text', text: 'Two files.' },
    ],
    content: 'Two files.',
    toolInvocations: [
      { state: 'result', toolCallId: 'call_1', toolName: 'list', args: {}, result: { files: ['a', 'b'] } },
    ],
  },
};
const request: MastraMessage = {
  id: 'request',
  role: 'user',
  createdAt: new Date('2026-01-01T00:00:01Z'),
  content: { format: 2, parts: [{ type: 'text', text: 'List the files.' }] },
};

describe('toMastra after compaction', () => {
  it('sends a shortened JSON result as its text, and makes the copies of the parts again', () => {
    const [user, call, results, text] = fromMastra([request, assistant]) as [
      Message,
      Message,
      Message,
      Message,
    ];
    const shortened = withCompactionMetadata(
      results,
      { kind: 'modified' },
      results.content.map((part) => ({ ...part, output: '[list output cleared]' })) as typeof results.content,
    );
    const [, rebuilt] = toMastra([user, call, shortened, text]);
    const invocation = {
      state: 'result',
      toolCallId: 'call_1',
      toolName: 'list',
      args: {},
      result: '[list output cleared]',
    };
    expect(rebuilt!.content.parts).toEqual([
      { type: 'tool-invocation', toolInvocation: invocation },
      { type: 'step-start' },
      { type: 'text', text: 'Two files.' },
    ]);
    expect(rebuilt!.content.toolInvocations).toEqual([invocation]);
    expect(rebuilt!.content.content).toBe('Two files.');
    expect(rebuilt!.id).toBe('answer');
  });

  it('makes a removal note a message dated in place, whose marks read back', () => {
    const [user, , , text] = fromMastra([request, assistant]) as [Message, Message, Message, Message];
    const note = withCompactionMetadata(
      {
        role: 'user',
        content: [{ type: 'text', text: '[2 earlier messages skipped to fit the context window]' }],
      },
      { kind: 'marker', removedMessages: 2 },
    );
    const converted = toMastra([user, note, text]);
    expect(converted.map((message) => message.role)).toEqual(['user', 'user', 'assistant']);
    expect(converted[1]!.createdAt).toEqual(request.createdAt);
    expect(new Set(converted.map((message) => message.id)).size).toBe(3);
    const [, readBack] = fromMastra(converted);
    expect(compactionMetadataOf(readBack!)).toEqual({ kind: 'marker', removedMessages: 2 });
  });
});

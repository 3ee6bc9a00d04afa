import { compactionMetadataOf, type Message } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { isSummary } from './is-summary.js';
import { separateJoinedSummaries } from './separate-joined-summaries.js';

const summaryText =
  '[Summary of 12 earlier messages, compaction round 2; the task is above, the latest messages follow verbatim.]\n\n## Artifact trail\nRead: a.py';
const task: Message = { role: 'user', content: [{ type: 'text', text: 'Fix the bug.' }] };
const call: Message = {
  role: 'assistant',
  content: [
    { type: 'text', text: summaryText },
    { type: 'text', text: 'Reading b.py.' },
    { type: 'tool-call', toolCallId: 'call_1', toolName: 'read', input: { path: 'b.py' } },
  ],
  metadata: { anthropic: { fields: { id: 'x' } } },
};
const result: Message = {
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'read', output: 'print(1)' }],
};

describe('separateJoinedSummaries', () => {
  it('takes a summary out of the model turn a format joined it with, marking the rest as changed', () => {
    const history = [task, call, result];
    const frozen = structuredClone(history);
    const separated = separateJoinedSummaries(history);
    expect(history).toEqual(frozen);
    expect(separated).toHaveLength(4);
    expect(separated[0]).toBe(task);
    expect(isSummary(separated[1]!)).toBe(true);
    expect(separated[1]!.content).toEqual([call.content[0]]);
    expect(separated[2]!.content).toEqual(call.content.slice(1));
    expect(compactionMetadataOf(separated[2]!)?.kind).toBe('modified');
    expect(separated[2]!.metadata?.anthropic).toEqual(call.metadata?.anthropic);
    expect(separated[3]).toBe(result);
  });

  it('returns the history itself when no summary shares a message', () => {
    const history = [task, { role: 'assistant', content: [{ type: 'text', text: summaryText }] } as Message];
    expect(separateJoinedSummaries(history)).toBe(history);
  });

  it('leaves a summary joined into the opening where it is, as the opening is kept as sent', () => {
    const joined: Message = { role: 'user', content: [...task.content, { type: 'text', text: summaryText }] };
    const history = [joined, call, result];
    const separated = separateJoinedSummaries(history);
    expect(separated[0]).toBe(joined);
    expect(separated).toHaveLength(4);
  });
});

import { describe, expect, it } from 'vitest';
import { assistant, calls, results, system, user } from '../__fixtures__/messages.js';
import { pinMessage } from '../messages/compaction-metadata.js';
import { TokenCounter } from '../tokens/token-counter.js';
import { assembleKeptTurns, type RemovalMarkerSettings } from './kept-turns.js';
import { keepUserTurnFirst, planTurns } from './turn-plan.js';

const markerSettings: RemovalMarkerSettings = {
  markers: true,
  text: (count) => `[${count} removed]`,
  round: 1,
  strategy: 'test',
};

describe('planTurns', () => {
  const messages = [
    system('s'),
    user('the task'),
    calls('a'),
    results('a'),
    pinMessage(assistant('pinned')),
    assistant('old answer'),
    user('newest request'),
  ];

  it('protects system, pinned, original-task and newest-user turns, and counts only those', () => {
    const counter = new TokenCounter();
    const plan = planTurns(messages, counter, { keepOriginalTask: true });
    expect(Array.from(plan.protectedTurns)).toEqual([1, 1, 0, 1, 0, 1]);
    expect(plan.taskTurn).toBe(1);
    expect(plan.startsWithUser).toBe(true);
    plan.turns.forEach((turn, index) => {
      const expected = plan.protectedTurns[index]
        ? counter.estimate(messages.slice(turn.start, turn.end))
        : 0;
      expect(plan.tokens[index]).toBe(expected);
    });
  });

  it('leaves the original task unprotected unless asked', () => {
    const plan = planTurns(messages, new TokenCounter(), { keepOriginalTask: false });
    expect(plan.protectedTurns[1]).toBe(0);
    expect(plan.taskTurn).toBe(1);
  });
});

describe('keepUserTurnFirst and assembleKeptTurns', () => {
  const messages = [
    system('s'),
    user('the task'),
    assistant('one'),
    user('two'),
    assistant('three'),
    user('newest request'),
  ];

  it('drops kept turns that would open the conversation with the model, and marks each gap once', () => {
    const plan = planTurns(messages, new TokenCounter(), { keepOriginalTask: false });
    // Keep everything but the task: the result would open with "one", an assistant turn.
    const kept = Uint8Array.from([1, 0, 1, 1, 1, 1]);
    keepUserTurnFirst(messages, plan, kept);
    expect(Array.from(kept)).toEqual([1, 0, 0, 1, 1, 1]);
    const assembled = assembleKeptTurns(messages, plan, kept, markerSettings);
    // The marker would stand first in the conversation, so its count waits for a later gap (none here).
    expect(assembled.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
    ]);
    expect(assembled).toMatchObject({ removedMessages: 2, removedTurns: 2, markers: 0 });
  });

  it('keeps the original task when a protected model turn would otherwise stand first', () => {
    const pinned = [system('s'), user('the task'), pinMessage(assistant('pinned')), user('newest')];
    const plan = planTurns(pinned, new TokenCounter(), { keepOriginalTask: false });
    const kept = Uint8Array.from([1, 0, 1, 1]);
    keepUserTurnFirst(pinned, plan, kept);
    expect(Array.from(kept)).toEqual([1, 1, 1, 1]);
  });

  it('drops nothing at or after dropBefore', () => {
    const plan = planTurns(messages, new TokenCounter(), { keepOriginalTask: false });
    const kept = Uint8Array.from([1, 0, 1, 1, 1, 1]);
    keepUserTurnFirst(messages, plan, kept, 2);
    expect(kept[2]).toBe(1);
  });

  it('puts one marker in each gap after the conversation started, and uses replacements for kept turns', () => {
    const plan = planTurns(messages, new TokenCounter(), { keepOriginalTask: true });
    const kept = Uint8Array.from([1, 1, 0, 0, 1, 1]);
    const replacement = assistant('three, shortened');
    const assembled = assembleKeptTurns(messages, plan, kept, markerSettings, new Map([[4, [replacement]]]));
    expect(assembled.messages.map((message) => message.content[0])).toEqual([
      { type: 'text', text: 's' },
      { type: 'text', text: 'the task' },
      { type: 'text', text: '[2 removed]' },
      { type: 'text', text: 'three, shortened' },
      { type: 'text', text: 'newest request' },
    ]);
    expect(assembled.messages[2]!.metadata?.compaction).toEqual({
      kind: 'marker',
      round: 1,
      strategy: 'test',
    });
    expect(assembled.messages[4]).toBe(messages[5]);
    expect(assembled).toMatchObject({ removedMessages: 2, removedTurns: 2, markers: 1 });
  });
});

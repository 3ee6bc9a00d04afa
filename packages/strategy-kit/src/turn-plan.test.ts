import { createTokenCounter, withCompactionMetadata } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { assistant, calls, results, system, user } from './__fixtures__/messages.js';
import { keepUserTurnFirst, planTurns } from './turn-plan.js';

describe('planTurns', () => {
  const messages = [
    system('s'),
    user('the task'),
    calls('a'),
    results('a'),
    withCompactionMetadata(assistant('pinned'), { pinned: true }),
    assistant('old answer'),
    user('newest request'),
  ];

  it('protects system, pinned, original-task and newest-user turns, and counts only those', () => {
    const counter = createTokenCounter();
    const plan = planTurns(messages, counter);
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

  it('protects a last turn whose calls still wait for their results, and only that one', () => {
    const waiting = [user('the task'), calls('a'), results('a'), calls('b', 'c'), results('b')];
    const plan = planTurns(waiting, createTokenCounter());
    expect(Array.from(plan.protectedTurns)).toEqual([1, 0, 1]);
    const answered = planTurns([...waiting, results('c')], createTokenCounter());
    expect(Array.from(answered.protectedTurns)).toEqual([1, 0, 0]);
  });

  it('takes the first user request as the original task, never a marker or summary before it', () => {
    const marker = withCompactionMetadata(user('[3 removed]'), { kind: 'marker' });
    const plan = planTurns(
      [system('s'), marker, user('the task'), calls('a'), results('a'), user('newest')],
      createTokenCounter(),
    );
    expect(plan.taskTurn).toBe(2);
    expect(Array.from(plan.protectedTurns)).toEqual([1, 0, 1, 0, 1]);
  });

  it('protects the whole opening: every message before the first model message', () => {
    // Codex's shape: two developer messages, an environment message, then the task; the task is not the first
    // user message, nor the newest one once a later request comes.
    const opening = [system('developer one'), system('developer two'), user('<environment_context/>')];
    const history = [...opening, user('the task'), calls('a'), results('a'), calls('b'), results('b')];
    const plan = planTurns([...history, user('newest')], createTokenCounter());
    expect(Array.from(plan.protectedTurns)).toEqual([1, 1, 1, 1, 0, 0, 1]);
  });
});

describe('keepUserTurnFirst', () => {
  const messages = [
    system('s'),
    user('the task'),
    assistant('one'),
    user('two'),
    assistant('three'),
    user('newest request'),
  ];

  it('drops kept turns that would open the conversation with the model', () => {
    const plan = planTurns(messages, createTokenCounter());
    // Keep everything but the task: the result would open with "one", an assistant turn.
    const kept = Uint8Array.from([1, 0, 1, 1, 1, 1]);
    expect(Array.from(keepUserTurnFirst(messages, plan, kept))).toEqual([1, 0, 0, 1, 1, 1]);
  });

  it('keeps the original task when a protected model turn would otherwise stand first', () => {
    const pinned = [
      system('s'),
      user('the task'),
      withCompactionMetadata(assistant('pinned'), { pinned: true }),
      user('newest'),
    ];
    const plan = planTurns(pinned, createTokenCounter());
    const kept = Uint8Array.from([1, 0, 1, 1]);
    expect(Array.from(keepUserTurnFirst(pinned, plan, kept))).toEqual([1, 1, 1, 1]);
  });

  it('drops nothing at or after dropBefore', () => {
    const plan = planTurns(messages, createTokenCounter());
    const kept = Uint8Array.from([1, 0, 1, 1, 1, 1]);
    expect(keepUserTurnFirst(messages, plan, kept, 2)[2]).toBe(1);
  });
});

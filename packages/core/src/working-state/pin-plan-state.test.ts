import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calls, results, user } from '../__fixtures__/messages.js';
import { compactionMetadataOf, isPinned, withCompactionMetadata } from '../messages/compaction-metadata.js';
import type { Message } from '../messages/message.js';
import { answers, planCall, planHistoryArbitrary } from './__fixtures__/plan-histories.js';
import { findPlanState } from './find-plan-state.js';
import { pinPlanState } from './pin-plan-state.js';

const pinnedByPlan = (message: Message) =>
  isPinned(message) && compactionMetadataOf(message)?.pinnedBy === 'plan';

describe('pinPlanState', () => {
  it('pins the latest plan call and its result, and unpins the plan it replaces', () => {
    const first = [
      user('Fix the build.'),
      planCall('plan_1', ['a']),
      answers({ id: 'plan_1', toolName: 'TodoWrite' }),
    ];
    const pinned = pinPlanState(first);
    expect(pinned.map(isPinned)).toEqual([false, true, true]);
    expect(pinned[0]).toBe(first[0]);
    const later = pinPlanState([
      ...pinned,
      calls('read_1'),
      results('read_1'),
      planCall('plan_2', ['a', 'b']),
      answers({ id: 'plan_2', toolName: 'TodoWrite' }),
    ]);
    expect(later.map(isPinned)).toEqual([false, false, false, false, false, true, true]);
    // Unpinned, the earlier plan is as it was before its pin.
    expect(later.slice(0, 3)).toEqual(first);
  });

  it('keeps the marks a strategy set when it unpins', () => {
    const shortened = withCompactionMetadata(answers({ id: 'plan_1', toolName: 'TodoWrite' }), {
      pinned: true,
      pinnedBy: 'plan',
      kind: 'modified',
    });
    const [, , unpinned] = pinPlanState([
      user('Go.'),
      planCall('plan_1', ['a']),
      shortened,
      planCall('plan_2', ['b']),
    ]);
    expect(compactionMetadataOf(unpinned!)).toEqual({ kind: 'modified' });
  });

  it('never unpins what the user pinned, nor marks it as its own', () => {
    const userPinned = withCompactionMetadata(planCall('plan_1', ['a']), { pinned: true });
    const messages = [user('Go.'), userPinned, answers({ id: 'plan_1', toolName: 'TodoWrite' })];
    const pinned = pinPlanState(messages);
    expect(pinned[1]).toBe(userPinned);
    const later = pinPlanState([...pinned, planCall('plan_2', ['b'])]);
    expect(later[1]).toBe(userPinned);
    expect(later.map(isPinned)).toEqual([false, true, false, true]);
  });

  it('returns a new array even when nothing changes', () => {
    const messages = [user('Go.')];
    const pinned = pinPlanState(messages);
    expect(pinned).not.toBe(messages);
    expect(pinned).toEqual(messages);
  });

  it('leaves only the latest plan pinned by it, keeps the user pins, and mutates nothing', () => {
    fc.assert(
      fc.property(planHistoryArbitrary, fc.nat(), (history, cut) => {
        // An earlier compaction pinned the plan of a shorter history; the agent has worked on since.
        const earlier = history.slice(0, cut % (history.length + 1));
        const messages = [...pinPlanState(earlier), ...history.slice(earlier.length)];
        const copy = structuredClone(messages);
        const pinned = pinPlanState(messages);
        expect(messages).toEqual(copy);
        expect(pinned).toHaveLength(messages.length);
        const latest = new Set(findPlanState(messages));
        pinned.forEach((message, index) => {
          const before = messages[index]!;
          expect(isPinned(message)).toBe(latest.has(index) || isPinned(history[index]!));
          if (isPinned(before) && !pinnedByPlan(before)) expect(message).toBe(before);
          if (!latest.has(index) && !pinnedByPlan(before)) expect(message).toBe(before);
          // What a superseded plan pin leaves is the message as the agent sent it.
          if (!latest.has(index)) expect(message).toEqual(history[index]);
          else expect(message.content).toBe(before.content);
        });
        // Pinning again changes nothing.
        const again = pinPlanState(pinned);
        for (const [index, message] of again.entries()) expect(message).toBe(pinned[index]);
      }),
    );
  });
});

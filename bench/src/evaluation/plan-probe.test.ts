import type { Message } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assistant, toolTurn, user } from './__fixtures__/messages.js';
import { planPhases, planTurn, withPlanCalls } from './plan-calls.js';
import { latestPlan, measurePlanRetention, type PlanItem, planStatuses } from './plan-probe.js';

const plan: PlanItem[] = [
  { text: 'Reproduce the failing import', status: 'completed' },
  { text: 'Patch the resolver in loader.py', status: 'in_progress' },
  { text: 'Run the whole test suite', status: 'pending' },
];

const summary = (text: string): Message => ({
  role: 'user',
  content: [{ type: 'text', text }],
  metadata: { compaction: { kind: 'summary' } },
});

describe('the plan probe', () => {
  it('reads the latest plan of Claude Code, Codex and opencode calls', () => {
    const messages: Message[] = [
      user('Fix the loader'),
      ...planTurn('1', [{ text: 'an old item', status: 'pending' }]),
      ...toolTurn(
        '2',
        'update_plan',
        { plan: [{ step: 'Patch  the\nresolver', status: 'completed' }] },
        'ok',
      ),
      assistant('Working on it.'),
    ];
    expect(latestPlan(messages)).toEqual([{ text: 'Patch the resolver', status: 'completed' }]);
    const opencode = toolTurn('3', 'todowrite', { todos: [{ content: 'Ship it', status: 'pending' }] }, '');
    expect(latestPlan([...messages, ...opencode])).toEqual([{ text: 'Ship it', status: 'pending' }]);
  });

  it('keeps every item of a context that holds the latest plan call verbatim, and none of one that lost it', () => {
    const good = [user('Fix the loader'), ...planTurn('plan', plan), assistant('Next.')];
    expect(measurePlanRetention(plan, good)).toEqual({ total: 3, kept: 3, lost: [] });
    const bad = [user('Fix the loader'), summary('## Pending work\nNothing recorded.'), assistant('Next.')];
    expect(measurePlanRetention(plan, bad)).toMatchObject({ total: 3, kept: 0 });
  });

  it('does not count an older plan whose items had another status', () => {
    const older = plan.map((item) => ({ ...item, status: 'pending' }));
    const context = [user('Fix the loader'), ...planTurn('old', older), assistant('Next.')];
    const retention = measurePlanRetention(plan, context);
    expect(retention.kept).toBe(1);
    expect(retention.lost.map((item) => item.status)).toEqual(['completed', 'in_progress']);
  });

  it('counts a summary that lists the items with their status', () => {
    const listed = summary(plan.map((item) => `- ${item.text} (${item.status})`).join('\n'));
    expect(measurePlanRetention(plan, [user('Fix the loader'), listed]).kept).toBe(3);
  });

  it('holds for any plan: its own call keeps it whole, the same items at other statuses keep none', () => {
    // Single-spaced words after `Step `: as the probe normalizes them, and never inside Claude Code's `activeForm`.
    const itemText = fc
      .array(fc.stringMatching(/^[a-z]{2,8}$/), { minLength: 1, maxLength: 5 })
      .map((words) => `Step ${words.join(' ')}`)
      .filter((text) => !planStatuses.some((status) => text.includes(status)));
    const items = fc.uniqueArray(fc.record({ text: itemText, status: fc.constantFrom(...planStatuses) }), {
      minLength: 1,
      maxLength: 8,
      // No item's text inside another's: the probe looks items up as text.
      comparator: (left, right) => left.text.includes(right.text) || right.text.includes(left.text),
    });
    fc.assert(
      fc.property(items, (plan) => {
        expect(measurePlanRetention(plan, planTurn('p', plan)).kept).toBe(plan.length);
        const moved = plan.map((item) => ({
          ...item,
          status: planStatuses[(planStatuses.indexOf(item.status) + 1) % planStatuses.length]!,
        }));
        expect(measurePlanRetention(plan, planTurn('p', moved)).kept).toBe(0);
      }),
    );
  });
});

describe('withPlanCalls', () => {
  const messages: Message[] = [
    user('Fix the loader'),
    ...Array.from({ length: 11 }, (_, index) =>
      toolTurn(`call-${index}`, 'bash', { command: `echo ${index}` }, String(index)),
    ).flat(),
  ];
  const third = messages[3]!;
  messages[3] = {
    ...third,
    content: [{ type: 'text', text: 'THOUGHT: Look at the loader first.' }, ...third.content],
  } as Message;

  it('writes the plan in at the start of each phase, one more item done each time, without mutating', () => {
    const before = structuredClone(messages);
    const times = messages.map((_, index) => index * 1000);
    const planned = withPlanCalls(messages, times);
    expect(messages).toEqual(before);
    expect(planned.messages).toHaveLength(messages.length + 2 * planPhases);
    expect(planned.callTimes).toHaveLength(planned.messages.length);
    const first = latestPlan(planned.messages.slice(0, planned.messages.indexOf(messages[3]!)));
    expect(first[0]).toEqual({ text: 'Phase 1 of 5: Look at the loader first.', status: 'in_progress' });
    expect(latestPlan(planned.messages).map((item) => item.status)).toEqual([
      'completed',
      'completed',
      'completed',
      'completed',
      'in_progress',
    ]);
    // The original messages are the same objects, in order, with their times.
    const originals = planned.messages.filter((message) => messages.includes(message));
    expect(originals).toEqual(messages);
    expect(planned.callTimes![planned.messages.indexOf(messages[5]!)]).toBe(5000);
  });
});

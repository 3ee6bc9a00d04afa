import { describe, expect, it } from 'vitest';
import { collapseMiddle } from '../__fixtures__/collapse-middle.js';
import { calls, conversation, results } from '../__fixtures__/messages.js';
import { createCompactor } from '../compactor/compactor.js';
import { isPinned } from '../messages/compaction-metadata.js';
import type { Message } from '../messages/message.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import { answers, planCall } from './__fixtures__/plan-histories.js';

const counter = createTokenCounter();
// The plan written early on, then thirty tool turns of work: a strategy that keeps only the opening and the
// newest request drops the plan with the rest.
const [systemPrompt, task, ...work] = conversation(30, 400);
const plan = planCall('plan_1', ['reproduce the failure', 'fix the parser', 'run the tests']);
const planResult = answers({ id: 'plan_1', toolName: 'TodoWrite' });
const history: Message[] = [
  systemPrompt!,
  task!,
  planCall('plan_0', ['reproduce the failure']),
  answers({ id: 'plan_0', toolName: 'TodoWrite' }),
  ...work.slice(0, 4),
  plan,
  planResult,
  ...work.slice(4),
];
const budget = {
  contextWindow: Math.ceil(counter.estimate(history) * 0.8),
  reservedOutputTokens: 0,
  safetyMargin: 0,
  trigger: 0.7,
  target: 0.3,
};

describe('the Compactor and the plan', () => {
  it('keeps the latest plan call and its result verbatim, pinned, and not the plan it replaced', async () => {
    const compactor = createCompactor({ strategy: collapseMiddle(), budget, counter });
    const result = await compactor.compact(history, { trigger: 'auto' });
    expect(result.compacted).toBe(true);
    const kept = result.messages.filter((message) => message.content === plan.content);
    expect(kept).toHaveLength(1);
    expect(isPinned(kept[0]!)).toBe(true);
    expect(
      result.messages.some((message) => message.content === planResult.content && isPinned(message)),
    ).toBe(true);
    expect(result.messages.some((message) => JSON.stringify(message).includes('plan_0'))).toBe(false);
    // The caller's history is left as it was.
    expect(history.some(isPinned)).toBe(false);
  });

  it('pins nothing with planTools false, or with tools that are not the agent’s', async () => {
    for (const planTools of [false, ['update_plan']] as const) {
      const compactor = createCompactor({ strategy: collapseMiddle(), budget, counter, planTools });
      const result = await compactor.compact(history, { trigger: 'auto' });
      expect(result.compacted).toBe(true);
      expect(result.messages.some((message) => message.content === plan.content)).toBe(false);
    }
  });

  it('counts the history on the usage the provider reported for it', async () => {
    const anchored = createTokenCounter();
    const inputTokens = counter.estimate(history) + 1234;
    anchored.recordUsage({ messages: history, inputTokens });
    const compactor = createCompactor({ strategy: collapseMiddle(), budget, counter: anchored });
    const result = await compactor.compact(history, { trigger: 'auto' });
    expect(result.event?.tokensBefore).toBe(inputTokens);
  });

  it('pins a newer plan next time and lets go of the one it replaced, read back or not', async () => {
    const compactor = createCompactor({ strategy: collapseMiddle(), budget, counter });
    const first = await compactor.compact(history, { trigger: 'auto' });
    // Read back from a provider's format: no marks, new objects.
    const readBack = first.messages.map(
      ({ metadata: _metadata, ...message }) => structuredClone(message) as Message,
    );
    const later = Array.from({ length: 30 }, (_, index) => [
      calls(`later_${index}`),
      results(`later_${index}`),
    ]);
    const newer = planCall('plan_2', ['fix the parser', 'run the tests']);
    for (const earlier of [first.messages, readBack]) {
      const grown: Message[] = [
        ...earlier.slice(0, -1),
        ...later.slice(0, 5).flat(),
        newer,
        answers({ id: 'plan_2', toolName: 'TodoWrite' }),
        ...later.slice(5).flat(),
        ...earlier.slice(-1),
      ];
      const second = await compactor.compact(grown, { trigger: 'manual' });
      expect(second.compacted).toBe(true);
      const kept = second.messages.find((message) => message.content === newer.content);
      expect(kept !== undefined && isPinned(kept)).toBe(true);
      expect(second.messages.some((message) => JSON.stringify(message.content).includes('plan_1'))).toBe(
        false,
      );
    }
  });

  it('returns a history it does not compact as it came, unpinned', async () => {
    const compactor = createCompactor({ strategy: collapseMiddle(), budget, counter });
    const short = history.slice(0, 12);
    const result = await compactor.compact(short, { trigger: 'auto' });
    expect(result.compacted).toBe(false);
    for (const [index, message] of result.messages.entries()) expect(message).toBe(short[index]);
  });
});

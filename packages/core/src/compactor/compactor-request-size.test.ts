import { describe, expect, it } from 'vitest';
import { collapseMiddle } from '../__fixtures__/collapse-middle.js';
import { conversation } from '../__fixtures__/messages.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import { createCompactor } from './compactor.js';

// What a request carries besides its messages (tool definitions, system fields) takes room in the window as
// the messages do; a limit the provider stated, or a target with room for several turns, is per request.

const counter = createTokenCounter();
const history = conversation(30, 400);
const messageTokens = counter.estimate(history);
const budget = {
  contextWindow: Math.ceil(messageTokens * 1.1),
  reservedOutputTokens: 0,
  safetyMargin: 0,
  trigger: 0.95,
  target: 0.5,
};

describe('Compactor: the size of the request around the messages', () => {
  it('counts the overhead: messages that fit alone are compacted when the tools do not fit beside them', async () => {
    const compactor = createCompactor({ strategy: collapseMiddle(), budget, counter });
    expect(compactor.check(history).shouldCompact).toBe(false);
    const overhead = Math.ceil(messageTokens * 0.3);
    expect(compactor.check(history, { overheadTokens: overhead })).toMatchObject({
      shouldCompact: true,
      reason: 'over-limit',
      tokens: messageTokens + overhead,
    });
    const result = await compactor.prepare(history, { overheadTokens: overhead });
    expect(result.compacted).toBe(true);
    // The messages and the overhead together are under the limit and at or under the target.
    const after = counter.count(result.messages) + overhead;
    expect(after).toBeLessThanOrEqual(compactor.budget.limit);
  });

  it('shrinks the trigger and target with a lower limit, and takes a lower target', async () => {
    const compactor = createCompactor({ strategy: collapseMiddle(), budget, counter });
    const { limit, trigger, target } = compactor.budget;
    const half = Math.floor(limit / 2);
    const check = compactor.check(history, { limitTokens: half });
    expect(check.limit).toBe(half);
    expect(check.trigger).toBeLessThan((trigger ?? 0) / 2 + 1);
    expect(check.target).toBeLessThan(target / 2 + 1);
    expect(compactor.check(history, { targetTokens: 10 }).target).toBe(10);
    const result = await compactor.compact(history, { limitTokens: half, trigger: 'overflow' });
    expect(counter.count(result.messages)).toBeLessThanOrEqual(half);
  });
});

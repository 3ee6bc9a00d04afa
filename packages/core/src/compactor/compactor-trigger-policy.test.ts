import { describe, expect, it } from 'vitest';
import { collapseMiddle } from '../__fixtures__/collapse-middle.js';
import { conversation, user } from '../__fixtures__/messages.js';
import type { CompactionStrategy } from '../specs/compaction-strategy-v1.js';
import type { CompactionTriggerPolicy, TriggerQuery } from '../specs/compaction-trigger-policy-v1.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import { createCompactor } from './compactor.js';

const counter = createTokenCounter();
const history = [...conversation(12, 400), user('Now run the tests again.')];
const historyTokens = counter.estimate(history);
// The history is under the trigger: without a policy nothing is compacted.
const budget = { contextWindow: historyTokens * 4, reservedOutputTokens: 0, safetyMargin: 0 };

/** A policy that answers as told and records what it was asked and told. */
function scripted(answer: { compact: boolean; target?: number }) {
  const queries: TriggerQuery[] = [];
  const sent: { tokens: number; compacted: boolean; messages: number }[] = [];
  const policy: CompactionTriggerPolicy = {
    name: 'scripted',
    decide: (query) => {
      queries.push(query);
      return answer;
    },
    sent: (request) =>
      sent.push({ tokens: request.tokens, compacted: request.compacted, messages: request.messages.length }),
  };
  return { policy, queries, sent };
}

/** Records the target each compaction was given. */
function recordingTargets(targets: number[]): CompactionStrategy {
  const inner = collapseMiddle();
  return {
    ...inner,
    compact: (input) => {
      targets.push(input.budget.target);
      return inner.compact(input);
    },
  };
}

describe('Compactor with a trigger policy', () => {
  it('compacts under the token trigger when the policy says so, to the target it gives', async () => {
    const targets: number[] = [];
    const { policy, queries, sent } = scripted({ compact: true, target: 100 });
    const compactor = createCompactor({
      strategy: recordingTargets(targets),
      budget,
      counter,
      triggerPolicy: policy,
    });
    expect(historyTokens).toBeLessThan(compactor.budget.trigger!);
    const check = compactor.check(history, { sessionId: 's' });
    expect(check).toMatchObject({ shouldCompact: true, reason: 'policy', target: 100 });
    const result = await compactor.prepare(history, { sessionId: 's' });
    expect(result.compacted).toBe(true);
    expect(targets).toEqual([100]);
    expect(queries.at(-1)).toMatchObject({
      sessionId: 's',
      tokens: historyTokens,
      limit: compactor.budget.limit,
    });
    expect(sent).toEqual([
      { tokens: result.event!.tokensAfter, compacted: true, messages: result.messages.length },
    ]);
  });

  it('leaves the history alone when the policy declines, and tells it what was sent', async () => {
    const { policy, sent } = scripted({ compact: false });
    const compactor = createCompactor({ strategy: collapseMiddle(), budget, counter, triggerPolicy: policy });
    const result = await compactor.prepare(history);
    expect(result).toMatchObject({ compacted: false, skipped: 'under-trigger' });
    expect(result.messages).toEqual(history);
    expect(sent).toEqual([{ tokens: historyTokens, compacted: false, messages: history.length }]);
  });

  it('is not asked over the limit: the Compactor compacts whatever it would say', async () => {
    const { policy, queries } = scripted({ compact: false });
    const tight = { ...budget, contextWindow: Math.floor(historyTokens * 0.9) };
    const compactor = createCompactor({
      strategy: collapseMiddle(),
      budget: tight,
      counter,
      triggerPolicy: policy,
    });
    expect(compactor.check(history)).toMatchObject({ shouldCompact: true, reason: 'over-limit' });
    expect(queries).toEqual([]);
  });
});

describe('a trigger policy that fails', () => {
  it('leaves the decision to the token trigger and reports the failure; a failing sent changes nothing', async () => {
    const failure = new Error('policy broke');
    const policy: CompactionTriggerPolicy = {
      name: 'broken',
      decide: () => {
        throw failure;
      },
      sent: () => {
        throw failure;
      },
    };
    const compactor = createCompactor({ strategy: collapseMiddle(), budget, counter, triggerPolicy: policy });
    const errors: unknown[] = [];
    compactor.on('error', (event) => errors.push(event.error));
    // Under the token trigger: nothing is compacted, and both failures are reported, none thrown.
    const result = await compactor.prepare(history, { sessionId: 'broken' });
    expect(result.compacted).toBe(false);
    expect(result.messages).toEqual(history);
    expect(errors).toEqual([failure, failure]);
  });
});

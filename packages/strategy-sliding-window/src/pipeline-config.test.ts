import {
  type BudgetOptions,
  type CompactionConfig,
  createCompactor,
  createStrategyRegistry,
  resolveCompactionConfig,
  verifyCompaction,
} from '@compaction/core';
import toolResultTruncation from '@compaction/strategy-tool-result-truncation';
import { codingConversation } from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import slidingWindow from './index.js';

describe('tool-result-truncation then sliding-window from a plain JSON config', () => {
  const config = JSON.parse(
    JSON.stringify({
      strategy: [{ name: 'tool-result-truncation', options: { keepRecent: 2 } }, 'sliding-window'],
      budget: { contextWindow: 20_000, reservedOutputTokens: 0, safetyMargin: 0, target: 0.25 },
    } satisfies CompactionConfig),
  ) as CompactionConfig;

  it('truncates old tool results first and slides the window only while still over the target', async () => {
    const registry = createStrategyRegistry({
      definitions: [toolResultTruncation, slidingWindow],
      loadPackage: false,
    });
    const compactor = createCompactor({
      ...(await resolveCompactionConfig(config, registry)),
      budget: config.budget as BudgetOptions,
    });
    const history = codingConversation(30, 4000);
    expect(compactor.check(history).shouldCompact).toBe(true);
    const result = await compactor.prepare(history);
    expect(result.compacted).toBe(true);
    const stages = result.event?.details?.stages as Array<{ name: string; tokensAfter: number }>;
    expect(stages.map((stage) => stage.name)).toEqual(['tool-result-truncation', 'sliding-window']);
    expect(stages[0]!.tokensAfter).toBeGreaterThan(compactor.budget.target);
    expect(stages[1]!.tokensAfter).toBeLessThanOrEqual(compactor.budget.target);
    const violations = verifyCompaction({
      before: history,
      after: result.messages,
      counter: compactor.counter,
      limit: compactor.budget.limit,
    });
    expect(violations).toEqual([]);
  });

  it('stops after truncation when that alone meets the target', async () => {
    const registry = createStrategyRegistry({ definitions: [toolResultTruncation, slidingWindow] });
    const compactor = createCompactor({
      ...(await resolveCompactionConfig(config, registry)),
      budget: { ...(config.budget as BudgetOptions), target: 0.6 },
    });
    const result = await compactor.prepare(codingConversation(16, 4000));
    const stages = result.event?.details?.stages as Array<{ name: string }>;
    expect(stages.map((stage) => stage.name)).toEqual(['tool-result-truncation']);
  });
});

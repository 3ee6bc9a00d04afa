import type { StrategyRegistry } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { createInstalledStrategyRegistry } from '../config/installed-strategies.js';
import { runsOnEventLoop } from './threaded-compactor.js';

describe('which strategies stay on the event loop', () => {
  it('keeps a strategy that calls a model there, by what its definition says of its options, not by its name', async () => {
    const registry = await createInstalledStrategyRegistry();
    expect(runsOnEventLoop(registry, 'summarization')).toBe(true);
    expect(runsOnEventLoop(registry, { name: 'summarization', options: { maxOutputTokens: 0 } })).toBe(false);
    expect(runsOnEventLoop(registry, 'pruning')).toBe(false);
    expect(runsOnEventLoop(registry, { name: 'tool-result-truncation' })).toBe(false);
  });

  it('answers for a pipeline by its stages', async () => {
    const registry = await createInstalledStrategyRegistry();
    const stages = (summarization: unknown) => ({
      name: 'pipeline',
      options: { stages: ['tool-result-truncation', summarization] },
    });
    expect(runsOnEventLoop(registry, stages('summarization'))).toBe(true);
    expect(
      runsOnEventLoop(registry, stages({ name: 'summarization', options: { maxOutputTokens: 0 } })),
    ).toBe(false);
  });

  it('keeps every strategy there when the registry cannot say', () => {
    // A registry of the StrategyRegistry spec from before `needsProvider`, which is optional there.
    const withoutAnswer: Pick<StrategyRegistry, 'needsProvider'> = {};
    expect(runsOnEventLoop(withoutAnswer, 'pruning')).toBe(true);
  });
});

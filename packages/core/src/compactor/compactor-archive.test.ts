import { describe, expect, it } from 'vitest';
import { collapseMiddle } from '../__fixtures__/collapse-middle.js';
import { conversation } from '../__fixtures__/messages.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { ArchivedItem, CompactionInput, CompactionStrategy } from '../specs/compaction-strategy-v1.js';
import { InMemoryCompactionStore } from '../store/in-memory-compaction-store.js';
import { createPipeline } from '../strategies/pipeline.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import { createCompactor } from './compactor.js';

const counter = createTokenCounter();
const history = conversation(40, 400);
const historyTokens = counter.estimate(history);
const budget = {
  contextWindow: Math.ceil(historyTokens * 0.8),
  reservedOutputTokens: 0,
  safetyMargin: 0,
  trigger: 0.7,
  target: 0.3,
};

/** collapse-middle that archives `items` when asked to, and remembers whether it was asked. */
function archiving(items: ArchivedItem[]): CompactionStrategy & { inputs: CompactionInput[] } {
  const inner = collapseMiddle('archiving');
  const inputs: CompactionInput[] = [];
  return {
    ...inner,
    inputs,
    async compact(input) {
      inputs.push(input);
      const output = await inner.compact(input);
      return input.archive === true ? { ...output, archived: items } : output;
    },
  };
}

const item = (handle: string, text: string): ArchivedItem => ({ handle, label: 'bash output', text });

describe('Compactor archive', () => {
  it('asks the strategy to archive and records its items once per handle, in the archive store', async () => {
    const store = new InMemoryCompactionStore();
    const strategy = archiving([item('a1', 'first'), item('b2', 'second'), item('a1', 'first')]);
    const compactor = createCompactor({ strategy, budget, counter, store, archive: true });
    const result = await compactor.compact(history, { sessionId: 's' });
    expect(strategy.inputs[0]?.archive).toBe(true);
    expect(result.archived).toEqual([item('a1', 'first'), item('b2', 'second')]);
    const [record] = await store.list('s');
    expect(record?.archived).toEqual(result.archived);
    expect(compactor.archiveStore).toBe(store);
  });

  it('does not ask strategies to archive unless archive is set, and records no items then', async () => {
    const store = new InMemoryCompactionStore();
    const strategy = archiving([item('a1', 'first')]);
    const result = await createCompactor({ strategy, budget, counter, store }).compact(history, {
      sessionId: 's',
    });
    expect(strategy.inputs[0]?.archive).toBeUndefined();
    expect(result.archived).toBeUndefined();
    expect((await store.list('s'))[0]?.archived).toBeUndefined();
  });

  it('refuses archive without a store to keep the text in', () => {
    expect(() => createCompactor({ strategy: collapseMiddle(), budget, counter, archive: true })).toThrow(
      InvalidOptionsError,
    );
  });

  it('treats one handle for two texts, or a malformed item, as a broken rule and runs the fallback', async () => {
    for (const items of [[item('a1', 'one'), item('a1', 'two')], [item('has space', 'x')]]) {
      const store = new InMemoryCompactionStore();
      const strategy = archiving(items);
      const fallback = archiving([item('c3', 'kept')]);
      const compactor = createCompactor({ strategy, fallback, budget, counter, store, archive: true });
      const result = await compactor.compact(history, { sessionId: 's' });
      expect(result.event?.usedFallback).toBe(true);
      expect(result.failures[0]).toMatchObject({
        code: 'core/rule-violation',
        violations: [{ rule: 'archive-valid' }],
      });
      expect(result.archived).toEqual([item('c3', 'kept')]);
    }
  });

  it('keeps the items of every stage of a pipeline', async () => {
    const store = new InMemoryCompactionStore();
    const noProgress: CompactionStrategy = {
      specificationVersion: 'v1',
      name: 'mask',
      async compact(input) {
        return { messages: [...input.messages], archived: [item('m1', 'masked')] };
      },
    };
    const strategy = createPipeline([noProgress, archiving([item('s2', 'summarized')])]);
    const result = await createCompactor({ strategy, budget, counter, store, archive: true }).compact(
      history,
    );
    expect(result.archived?.map((archived) => archived.handle)).toEqual(['m1', 's2']);
  });
});

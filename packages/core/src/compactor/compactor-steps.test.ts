import { describe, expect, it } from 'vitest';
import { collapseMiddle } from '../__fixtures__/collapse-middle.js';
import { conversation } from '../__fixtures__/messages.js';
import { ContextOverflowError } from '../errors/context-overflow-error.js';
import type { CompactionStrategy } from '../specs/compaction-strategy-v1.js';
import { createPipeline } from '../strategies/pipeline.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import type { CompactorObserver, CompactorStep } from './compaction-step.js';
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

/** Records each step as its name, indented by how deep it runs, and how it ended. */
function recorder(
  enter: (step: CompactorStep) => void = () => {},
): CompactorObserver & { lines: string[]; steps: CompactorStep[] } {
  const lines: string[] = [];
  const steps: CompactorStep[] = [];
  const observer = (depth: number): CompactorObserver['observe'] =>
    async function observe(step, run) {
      steps.push(step);
      enter(step);
      const name = 'name' in step ? `${step.kind} ${step.name}` : step.kind;
      const line = lines.push(`${'  '.repeat(depth)}${name}`) - 1;
      try {
        return await run(observer(depth + 1));
      } catch (error) {
        lines[line] += ' (failed)';
        throw error;
      }
    };
  return { lines, steps, observe: observer(0) };
}

/** A stage that asks a model (a scripted answer) and changes nothing. */
const asking: CompactionStrategy = {
  specificationVersion: 'v1',
  name: 'asking',
  async compact(input) {
    const ask = async () => ({ text: 'noted', finishReason: 'stop' as const });
    await (input.observe?.({ kind: 'generate', provider: 'scripted', model: 'small' }, ask) ?? ask());
    return { messages: [...input.messages] };
  },
};

describe('Compactor observers', () => {
  it('see each step inside the one it belongs to: stages and model calls inside the strategy', async () => {
    const observer = recorder();
    const strategy = createPipeline([asking, collapseMiddle()]);
    const compactor = createCompactor({ strategy, budget, counter, observers: [observer] });
    const result = await compactor.compact(history, { sessionId: 's' });
    expect(result.compacted).toBe(true);
    expect(observer.lines).toEqual([
      'compaction',
      '  strategy pipeline',
      '    stage asking',
      '      generate',
      '    stage collapse-middle',
    ]);
    expect(observer.steps[0]).toEqual({
      kind: 'compaction',
      sessionId: 's',
      trigger: 'manual',
      strategy: 'pipeline',
    });
    expect(observer.steps[1]).toMatchObject({
      fallback: false,
      round: 1,
      messages: history,
      tokens: historyTokens,
    });
  });

  it('see prepare and recover around their compactions, and a failed attempt before the fallback', async () => {
    const observer = recorder();
    const failing: CompactionStrategy = {
      specificationVersion: 'v1',
      name: 'failing',
      compact: async () => {
        throw new Error('no');
      },
    };
    const compactor = createCompactor({
      strategy: failing,
      fallback: collapseMiddle(),
      budget,
      counter,
      observers: [observer],
    });
    await compactor.prepare(history, { sessionId: 'p' });
    const overflow = new ContextOverflowError({ provider: 'scripted', message: 'too long' });
    await compactor.recover(history, overflow, { sessionId: 'r' });
    await expect(compactor.recover(history, new Error('other'))).rejects.toThrow('other');
    expect(observer.lines).toEqual([
      'prepare',
      '  compaction',
      '    strategy failing (failed)',
      '    strategy collapse-middle',
      'recover',
      '  compaction',
      '    strategy failing (failed)',
      '    strategy collapse-middle',
      'recover (failed)',
    ]);
    expect(observer.steps.filter((step) => step.kind === 'strategy').map((step) => step.fallback)).toEqual([
      false,
      true,
      false,
      true,
    ]);
  });

  it('all see every step in the same tree, the first outermost, and the result goes through unchanged', async () => {
    const entered: string[] = [];
    const first = recorder((step) => entered.push(`first ${step.kind}`));
    const second = recorder((step) => entered.push(`second ${step.kind}`));
    const strategy = createPipeline([asking, collapseMiddle()]);
    const plain = createCompactor({ strategy, budget, counter });
    const observed = createCompactor({ strategy, budget, counter, observers: [first, second] });
    const expected = await plain.compact(history);
    const result = await observed.compact(history);
    expect(result.messages).toEqual(expected.messages);
    expect(first.lines).toEqual([
      'compaction',
      '  strategy pipeline',
      '    stage asking',
      '      generate',
      '    stage collapse-middle',
    ]);
    expect(second.lines).toEqual(first.lines);
    expect(entered.slice(0, 4)).toEqual([
      'first compaction',
      'second compaction',
      'first strategy',
      'second strategy',
    ]);
  });

  it('without observers, strategies are given no runner', async () => {
    const inputs: unknown[] = [];
    const inner = collapseMiddle();
    const compactor = createCompactor({
      strategy: {
        ...inner,
        compact: (input) => {
          inputs.push(input.observe);
          return inner.compact(input);
        },
      },
      budget,
      counter,
    });
    await compactor.compact(history);
    expect(inputs).toEqual([undefined]);
  });
});

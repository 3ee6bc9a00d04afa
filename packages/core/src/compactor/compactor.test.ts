import { describe, expect, it } from 'vitest';
import { collapseMiddle } from '../__fixtures__/collapse-middle.js';
import { assistant, calls, conversation, system, user } from '../__fixtures__/messages.js';
import { BudgetUnreachableError } from '../errors/budget-unreachable-error.js';
import { CompactionAbortedError } from '../errors/compaction-aborted-error.js';
import { ContextOverflowError } from '../errors/context-overflow-error.js';
import { RuleViolationError } from '../errors/rule-violation-error.js';
import { StrategyFailedError } from '../errors/strategy-failed-error.js';
import type { Message } from '../messages/message.js';
import type { CompactionStrategy } from '../specs/compaction-strategy-v1.js';
import { InMemoryCompactionStore } from '../store/in-memory-compaction-store.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import { createCompactor } from './compactor.js';

const counter = createTokenCounter();
const history = conversation(40, 400);
const historyTokens = counter.estimate(history);
// A window the history overflows: the limit is 80% of the history.
const budget = {
  contextWindow: Math.ceil(historyTokens * 0.8),
  reservedOutputTokens: 0,
  safetyMargin: 0,
  trigger: 0.7,
  target: 0.3,
};

const throwing = (message: string): CompactionStrategy => ({
  specificationVersion: 'v1',
  name: 'throwing',
  compact: async () => {
    throw new Error(message);
  },
});
const dropsToolResults: CompactionStrategy = {
  specificationVersion: 'v1',
  name: 'drops-tool-results',
  compact: async ({ messages }) => ({ messages: messages.filter((message) => message.role !== 'tool') }),
};

describe('Compactor.check', () => {
  it('says when and why to compact', () => {
    const compactor = createCompactor({ strategy: collapseMiddle(), budget, counter });
    const over = compactor.check(history);
    expect(over).toMatchObject({ shouldCompact: true, reason: 'over-limit', tokens: historyTokens });
    expect(over.utilization).toBeGreaterThan(1);
    expect(compactor.check(history.slice(0, 3))).toMatchObject({
      shouldCompact: false,
      reason: 'under-trigger',
    });
    const disabled = createCompactor({
      strategy: collapseMiddle(),
      budget: { ...budget, trigger: false },
      counter,
    });
    expect(disabled.check(history)).toMatchObject({ shouldCompact: false, reason: 'disabled' });
  });
});

describe('Compactor.compact', () => {
  it('compacts, verifies and records one event with the removed messages', async () => {
    const store = new InMemoryCompactionStore();
    const ends: unknown[] = [];
    const compactor = createCompactor({
      strategy: collapseMiddle(),
      budget,
      counter,
      store,
      generateId: () => 'event-1',
    });
    compactor.on('end', (event) => ends.push(event));
    const input = [...history];
    const result = await compactor.compact(input, { sessionId: 's1', instructions: 'keep the paths' });
    expect(result.compacted).toBe(true);
    expect(input).toEqual(history);
    expect(result.event).toMatchObject({
      id: 'event-1',
      sessionId: 's1',
      round: 1,
      trigger: 'manual',
      strategy: 'collapse-middle',
      usedFallback: false,
      tokensBefore: historyTokens,
      messagesBefore: history.length,
      messagesAfter: result.messages.length,
      instructions: 'keep the paths',
      summary: '80 removed',
    });
    expect(result.event!.tokensAfter).toBeLessThan(historyTokens);
    expect(ends).toEqual([result.event]);
    const records = await store.list('s1');
    expect(records).toHaveLength(1);
    expect(records[0]!.removedMessages).toHaveLength(80);
    const second = await compactor.compact([...result.messages, ...conversation(30, 400).slice(2)], {
      sessionId: 's1',
    });
    expect(second.event?.round).toBe(2);
  });

  it('falls back when the strategy throws or breaks a rule, and records why', async () => {
    for (const strategy of [throwing('boom'), dropsToolResults]) {
      const compactor = createCompactor({ strategy, fallback: collapseMiddle(), budget, counter });
      const result = await compactor.compact(history);
      expect(result.event).toMatchObject({ strategy: 'collapse-middle', usedFallback: true });
      expect(result.failures).toEqual(result.event!.failures);
      expect(result.failures).toHaveLength(1);
      expect(result.failures[0]!.strategy).toBe(strategy.name);
    }
    const thrown = await createCompactor({
      strategy: throwing('boom'),
      fallback: collapseMiddle(),
      budget,
      counter,
    }).compact(history);
    expect(thrown.failures).toEqual([{ strategy: 'throwing', code: 'core/strategy-failed', error: 'boom' }]);
    const broken = await createCompactor({
      strategy: dropsToolResults,
      fallback: collapseMiddle(),
      budget,
      counter,
    }).compact(history);
    expect(broken.failures[0]).toMatchObject({ strategy: 'drops-tool-results', code: 'core/rule-violation' });
    expect(broken.failures[0]!.error).toContain('tool-pairing');
    expect(broken.failures[0]!.violations?.[0]?.rule).toBe('tool-pairing');
  });

  it('reports no failures when the strategy succeeds', async () => {
    const result = await createCompactor({ strategy: collapseMiddle(), budget, counter }).compact(history);
    expect(result.failures).toEqual([]);
    expect(result.event?.failures).toEqual([]);
  });

  it('throws a typed error and leaves the history intact when every strategy fails', async () => {
    const input = Object.freeze([...history]) as Message[];
    const errors: unknown[] = [];
    const compactor = createCompactor({
      strategy: dropsToolResults,
      fallback: throwing('also broken'),
      budget,
      counter,
    });
    compactor.on('error', ({ error }) => errors.push(error));
    await expect(compactor.compact(input)).rejects.toThrow(StrategyFailedError);
    const rulesOnly = createCompactor({ strategy: dropsToolResults, budget, counter });
    await expect(rulesOnly.compact(input)).rejects.toThrow(RuleViolationError);
    expect(errors).toHaveLength(1);
    expect(input).toEqual(history);
  });

  it("passes a strategy's BudgetUnreachableError on unchanged, the closest one when several failed", async () => {
    const tiny = { contextWindow: 20, reservedOutputTokens: 0, safetyMargin: 0, trigger: 0.9, target: 0.5 };
    const thrown: BudgetUnreachableError[] = [];
    const unreachable = (name: string, best: number): CompactionStrategy => ({
      specificationVersion: 'v1',
      name,
      async compact({ budget: { target, limit } }) {
        const error = new BudgetUnreachableError({ target, best, limit, reason: name });
        thrown.push(error);
        throw error;
      },
    });
    const alone = createCompactor({ strategy: unreachable('first', 900), budget: tiny, counter });
    // The budget: a limit of 20 tokens and a target of half of it.
    expect(alone.budget).toMatchObject({ limit: 20, target: 10 });
    expect(await alone.compact(history).catch((error: unknown) => error)).toBe(thrown[0]);
    expect(thrown[0]).toMatchObject({ target: alone.budget.target, limit: alone.budget.limit, best: 900 });
    const errors: unknown[] = [];
    const both = createCompactor({
      strategy: unreachable('first', 900),
      fallback: unreachable('fallback', 400),
      budget: tiny,
      counter,
    });
    both.on('error', (event) => errors.push(event));
    expect(await both.compact(history).catch((error: unknown) => error)).toBe(thrown[2]);
    expect(errors).toEqual([
      {
        sessionId: 'default',
        trigger: 'manual',
        error: thrown[2],
        source: 'compaction',
        failures: [
          {
            strategy: 'first',
            code: 'core/budget-unreachable',
            error: thrown[1]!.message,
            target: 10,
            best: 900,
          },
          {
            strategy: 'fallback',
            code: 'core/budget-unreachable',
            error: thrown[2]!.message,
            target: 10,
            best: 400,
          },
        ],
      },
    ]);
    const collapsing = createCompactor({ strategy: collapseMiddle(), budget: tiny, counter });
    await expect(collapsing.compact(history)).rejects.toThrow(
      /^Cannot reach the target of 10 tokens: the best is [\d,]+, over the limit of 20 \(kept messages too large\)$/,
    );
  });

  it('takes a result over the limit as an unreachable budget, naming the target and the count', async () => {
    const keepsEverything: CompactionStrategy = {
      specificationVersion: 'v1',
      name: 'keeps-everything',
      compact: async ({ messages }) => ({ messages: [...messages] }),
    };
    const compactor = createCompactor({ strategy: keepsEverything, budget, counter });
    const error = await compactor.compact(history).catch((caught: unknown) => caught);
    expect(BudgetUnreachableError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      target: compactor.budget.target,
      limit: compactor.budget.limit,
      best: historyTokens,
    });
  });

  it('lets the before hook cancel or replace instructions, and calls the after hook', async () => {
    const seen: string[] = [];
    const cancelling = createCompactor({
      strategy: collapseMiddle(),
      budget,
      counter,
      hooks: { beforeCompaction: () => ({ cancel: true }) },
    });
    expect(await cancelling.compact(history)).toMatchObject({ compacted: false, skipped: 'cancelled' });
    const instructing = createCompactor({
      strategy: collapseMiddle(),
      budget,
      counter,
      hooks: {
        beforeCompaction: () => ({ instructions: 'focus on tests' }),
        afterCompaction: (event) => {
          seen.push(event.instructions ?? '');
        },
      },
    });
    await instructing.compact(history);
    expect(seen).toEqual(['focus on tests']);
  });

  it('runs one compaction per session at a time', async () => {
    let running = 0;
    let overlap = false;
    const slow: CompactionStrategy = {
      specificationVersion: 'v1',
      name: 'slow',
      async compact(input) {
        running++;
        if (running > 1) overlap = true;
        await new Promise((resolve) => setTimeout(resolve, 10));
        running--;
        return collapseMiddle('slow').compact(input);
      },
    };
    const compactor = createCompactor({ strategy: slow, budget, counter });
    const results = await Promise.all([
      compactor.compact(history),
      compactor.compact(history),
      compactor.compact(history),
    ]);
    expect(overlap).toBe(false);
    expect(results.map((result) => result.event?.round)).toEqual([1, 2, 3]);
  });

  it('aborts with CompactionAbortedError and no fallback', async () => {
    const controller = new AbortController();
    controller.abort();
    const compactor = createCompactor({
      strategy: collapseMiddle(),
      fallback: collapseMiddle('fallback'),
      budget,
      counter,
    });
    await expect(compactor.compact(history, { abortSignal: controller.signal })).rejects.toThrow(
      CompactionAbortedError,
    );
  });

  it('repairs a damaged history before compacting and records the repairs', async () => {
    const damaged = [...history.slice(0, 2), calls('lost'), user('go on'), ...history.slice(2)];
    const compactor = createCompactor({ strategy: collapseMiddle(), budget, counter });
    const result = await compactor.compact(damaged);
    expect(result.event?.repairs).toEqual([{ kind: 'placeholder-result', toolCallId: 'lost', index: 2 }]);
  });
});

describe('Compactor loops', () => {
  it('prepare compacts over the trigger and skips right after, with no new messages', async () => {
    const skipped: string[] = [];
    const compactor = createCompactor({ strategy: collapseMiddle(), budget, counter });
    compactor.on('skipped', ({ reason }) => skipped.push(reason));
    const first = await compactor.prepare(history);
    expect(first.compacted).toBe(true);
    const again = await compactor.prepare(first.messages);
    expect(again.compacted).toBe(false);
    expect(await compactor.prepare(history.slice(0, 3))).toMatchObject({
      compacted: false,
      skipped: 'under-trigger',
    });
    expect(skipped).toEqual([]);
  });

  it('does not compact back to back when the result stays over the trigger', async () => {
    // Drops only the oldest tool turn, so the result stays over the trigger (but under the limit).
    const dropOneTurn: CompactionStrategy = {
      specificationVersion: 'v1',
      name: 'drop-one-turn',
      compact: async ({ messages }) => ({ messages: [...messages.slice(0, 2), ...messages.slice(4)] }),
    };
    const roomy = { ...budget, contextWindow: Math.ceil(historyTokens * 1.1) };
    const compactor = createCompactor({
      strategy: dropOneTurn,
      budget: roomy,
      counter,
      minimumNewMessages: 3,
    });
    const first = await compactor.prepare(history);
    expect(first.compacted).toBe(true);
    expect(first.event!.tokensAfter).toBeGreaterThan(compactor.budget.trigger!);
    const oneMore = [...first.messages, user('one more')];
    expect(compactor.check(oneMore)).toMatchObject({ shouldCompact: false, reason: 'back-to-back' });
    const threeMore = [...oneMore, user('two'), user('three')];
    expect(compactor.check(threeMore)).toMatchObject({ shouldCompact: true, reason: 'over-trigger' });
  });

  it('prepare returns the history unchanged when compaction fails but it still fits', async () => {
    const errors: unknown[] = [];
    const roomy = { ...budget, contextWindow: Math.ceil(historyTokens * 1.25) };
    const compactor = createCompactor({ strategy: throwing('down'), budget: roomy, counter });
    compactor.on('error', ({ error }) => errors.push(error));
    const fitting = [...history];
    const check = compactor.check(fitting);
    expect(check.reason).toBe('over-trigger');
    const result = await compactor.prepare(fitting);
    expect(result).toMatchObject({ compacted: false });
    expect(result.messages).toEqual(history);
    expect(result.failures).toEqual([{ strategy: 'throwing', code: 'core/strategy-failed', error: 'down' }]);
    expect(errors).toHaveLength(1);
  });

  it('recover compacts on an overflow error with a limit scaled by how far the count was off', async () => {
    const compactor = createCompactor({ strategy: collapseMiddle(), budget, counter });
    const overflow = new ContextOverflowError({
      provider: 'test',
      requestTokens: historyTokens * 2,
      maximumTokens: historyTokens,
    });
    const result = await compactor.recover(history, overflow);
    expect(result.event?.trigger).toBe('overflow');
    expect(result.event!.tokensAfter).toBeLessThanOrEqual(compactor.budget.limit / 2);
    await expect(compactor.recover(history, new Error('network down'))).rejects.toThrow('network down');
  });

  it('recover shrinks under what was sent when the refusal carries no numbers', async () => {
    // A window the history fits: the provider refused anyway (its count is higher than ours).
    const roomy = { ...budget, contextWindow: historyTokens * 4 };
    const compactor = createCompactor({ strategy: collapseMiddle(), budget: roomy, counter });
    const result = await compactor.recover(history, new ContextOverflowError({ provider: 'test' }));
    expect(result.compacted).toBe(true);
    expect(result.event!.tokensAfter).toBeLessThanOrEqual(historyTokens * 0.9);
  });
});

describe('single flight', () => {
  it('shares one automatic compaction between concurrent prepare calls on the same history', async () => {
    let runs = 0;
    const strategy: CompactionStrategy = {
      specificationVersion: 'v1',
      name: 'keep-last-two',
      async compact({ messages }) {
        runs++;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { messages: [messages[0]!, messages[1]!, ...messages.slice(-2)] };
      },
    };
    const compactor = createCompactor({ strategy, budget: { contextWindow: 400, reservedOutputTokens: 0 } });
    // The opening (system prompt and task) is kept whole; the rest alternates with the model's answers.
    const history = [
      system('s'),
      user('task'),
      ...Array.from({ length: 30 }, (_, index) =>
        index % 2 === 0 ? assistant(`answer ${index} `.repeat(8)) : user(`message ${index} `.repeat(8)),
      ),
    ];
    const results = await Promise.all([1, 2, 3].map(() => compactor.prepare(history, { sessionId: 'one' })));
    expect(runs).toBe(1);
    for (const result of results) {
      expect(result.compacted).toBe(true);
      expect(result.messages).toEqual(results[0]!.messages);
      expect(result.event?.round).toBe(1);
    }
    // A call that brought one more message gets the shared result followed by that message.
    const later = [...history, user('and one more')];
    const [, extended] = await Promise.all([
      compactor.prepare([...history, user('x '.repeat(40))], { sessionId: 'two' }),
      compactor.prepare([...history, user('x '.repeat(40)), later.at(-1)!], { sessionId: 'two' }),
    ]);
    expect(runs).toBe(2);
    expect(extended.messages.at(-1)).toEqual(user('and one more'));
  });
});

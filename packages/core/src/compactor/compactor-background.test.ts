import { describe, expect, it } from 'vitest';
import { conversation, user } from '../__fixtures__/messages.js';
import { CompactionAbortedError } from '../errors/compaction-aborted-error.js';
import type { Message } from '../messages/message.js';
import { textOf } from '../messages/message-content.js';
import { InMemoryCompactionStore } from '../store/in-memory-compaction-store.js';
import { verifyCompaction } from '../verify/verify-compaction.js';
import {
  background,
  base,
  beyond,
  budget,
  controlledStrategy,
  counter,
  later,
  recordEvents,
  settle,
  turns,
} from './__fixtures__/background-scenario.js';
import { createCompactor } from './compactor.js';

const sessionId = 's';

function setUp() {
  const controlled = controlledStrategy();
  const store = new InMemoryCompactionStore();
  const compactor = createCompactor({ strategy: controlled.strategy, budget, counter, store, background });
  return { ...controlled, store, compactor, events: recordEvents(compactor) };
}

describe('Compactor background compaction', () => {
  it('sits between the target and the trigger in the scenario the tests use', () => {
    const compactor = createCompactor({ strategy: controlledStrategy().strategy, budget, counter });
    const { limit, trigger } = compactor.budget;
    expect(compactor.check(base).tokens).toBeGreaterThan(limit * background.prepareAt);
    expect(compactor.check(base).tokens).toBeLessThan(trigger!);
    expect(compactor.check(later).tokens).toBeGreaterThan(trigger!);
    expect(compactor.check(later).tokens).toBeLessThanOrEqual(limit);
    expect(compactor.check(beyond).tokens).toBeGreaterThan(limit);
    expect(counter.count(beyond.slice(base.length))).toBeLessThanOrEqual(compactor.budget.target);
  });

  it('compacts ahead of the trigger without blocking, and uses the result at the trigger', async () => {
    const { compactor, state, hold, events, store } = setUp();
    hold();
    const early = await compactor.prepare(base, { sessionId });
    // Returned while the strategy is still held: prepare did not wait for it.
    expect(early).toMatchObject({ compacted: false, skipped: 'under-trigger', messages: base });
    await settle();
    expect(state.calls).toBe(1);
    expect(events.background).toEqual([
      { status: 'started', sessionId, tokens: counter.count(base), messages: base.length },
    ]);
    expect(await compactor.prepare(base, { sessionId })).toMatchObject({ compacted: false });
    expect(state.calls).toBe(1);
    state.release();
    await settle();
    expect(events.end).toHaveLength(0);
    const result = await compactor.prepare(later, { sessionId });
    expect(state.calls).toBe(1);
    expect(result.compacted).toBe(true);
    const appended = later.slice(base.length);
    expect(result.messages.slice(-appended.length)).toEqual(appended);
    expect(
      result.messages.slice(-appended.length).every((message, index) => message === appended[index]),
    ).toBe(true);
    const { limit } = compactor.budget;
    expect(verifyCompaction({ before: later, after: result.messages, counter, limit })).toEqual([]);
    expect(events.background.at(-1)).toMatchObject({
      status: 'used',
      appended: appended.length,
      compactedAgain: false,
    });
    expect(events.start).toHaveLength(1);
    expect(events.end).toEqual([result.event]);
    expect(await store.list(sessionId)).toHaveLength(1);
    // Right after, the compacted history with a new message is not compacted again.
    const next = await compactor.prepare([...result.messages, ...turns(1, 'next')], { sessionId });
    expect(next.compacted).toBe(false);
    expect(state.calls).toBe(1);
  });

  it('sends a history over the trigger but under the limit as it is while the job runs, and uses the result later', async () => {
    const { compactor, state, hold, events } = setUp();
    hold();
    await compactor.prepare(base, { sessionId });
    await settle();
    const pending = await compactor.prepare(later, { sessionId });
    expect(pending).toEqual({
      messages: later,
      compacted: false,
      skipped: 'background-pending',
      failures: [],
    });
    expect(events.skipped.at(-1)).toMatchObject({ reason: 'background-pending', sessionId });
    expect(events.end).toEqual([]);
    state.release();
    await settle();
    const next = [...later, ...turns(1, 'next')];
    const result = await compactor.prepare(next, { sessionId });
    expect(state.calls).toBe(1);
    expect(result.compacted).toBe(true);
    expect(events.background.at(-1)).toMatchObject({ status: 'used', compactedAgain: false });
    expect(verifyCompaction({ before: next, after: result.messages, counter })).toEqual([]);
  });

  it('starts a job at the trigger when none runs, and sends the history as it is while it fits', async () => {
    const { compactor, state, hold, events } = setUp();
    hold();
    // From under `prepareAt` to over the trigger in one step: no job was started ahead.
    const early = conversation(4, 100);
    await compactor.prepare(early, { sessionId });
    expect(events.background).toEqual([]);
    const pending = await compactor.prepare(later, { sessionId });
    expect(pending).toMatchObject({ compacted: false, skipped: 'background-pending' });
    expect(events.background).toMatchObject([{ status: 'started', messages: later.length }]);
    state.release();
    await settle();
    const result = await compactor.prepare([...later, ...turns(1, 'next')], { sessionId });
    expect(result.compacted).toBe(true);
    expect(state.calls).toBe(1);
  });

  it('blocks at the trigger with waitAtTrigger, as without it over the limit', async () => {
    const { strategy, state, hold } = controlledStrategy();
    const settings = { strategy, budget, counter, background: { ...background, waitAtTrigger: true } };
    const compactor = createCompactor(settings);
    hold();
    const atTrigger = compactor.prepare(later, { sessionId });
    await settle();
    state.release();
    expect(await atTrigger).toMatchObject({ compacted: true });
    expect(state.calls).toBe(1);
  });

  it('blocks when a trigger policy compacts under the trigger: it asked for the compaction now', async () => {
    const { strategy, state, hold } = controlledStrategy();
    const triggerPolicy = { name: 'now', decide: () => ({ compact: true }) };
    const compactor = createCompactor({ strategy, budget, counter, background, triggerPolicy });
    hold();
    const result = compactor.prepare(base, { sessionId });
    await settle();
    state.release();
    expect(await result).toMatchObject({ compacted: true });
    expect(state.calls).toBe(1);
  });

  it('waits over the limit for a job still running on a prefix of the history, rather than start again', async () => {
    const { compactor, state, hold, events } = setUp();
    hold();
    await compactor.prepare(base, { sessionId });
    const atTrigger = compactor.prepare(beyond, { sessionId });
    await settle();
    state.release();
    const result = await atTrigger;
    expect(result.compacted).toBe(true);
    expect(state.calls).toBe(1);
    const used = events.background.at(-1);
    expect(used).toMatchObject({ status: 'used', compactedAgain: false });
    expect(used?.status === 'used' && used.waitedMs).toBeGreaterThan(0);
  });

  it('drops the result when a message before the cut was edited, and compacts the edited history in line', async () => {
    const { compactor, state, events, store } = setUp();
    await compactor.prepare(base, { sessionId });
    await settle();
    const task: Message = { role: 'user', content: [{ type: 'text', text: 'Fix the flaky test instead.' }] };
    const edited = [...beyond.slice(0, 1), task, ...beyond.slice(2)];
    const result = await compactor.prepare(edited, { sessionId });
    expect(events.background.at(-1)).toEqual({ status: 'discarded', sessionId, reason: 'history-changed' });
    expect(state.calls).toBe(2);
    expect(result.compacted).toBe(true);
    expect(result.event?.messagesBefore).toBe(edited.length);
    const texts = result.messages.map(textOf);
    expect(texts).toContain('Fix the flaky test instead.');
    expect(texts).not.toContain('Fix the failing test.');
    expect(await store.list(sessionId)).toHaveLength(1);
  });

  it('drops the result when a turn was inserted in the middle', async () => {
    const { compactor, state, events } = setUp();
    await compactor.prepare(base, { sessionId });
    await settle();
    const inserted = turns(1, 'inserted').slice(0, 2);
    const history = [...beyond.slice(0, 6), ...inserted, ...beyond.slice(6)];
    const result = await compactor.prepare(history, { sessionId });
    expect(events.background.map((event) => event.status)).toEqual(['started', 'discarded']);
    expect(events.background.at(-1)).toMatchObject({ reason: 'history-changed' });
    expect(state.calls).toBe(2);
    expect(result.event?.messagesBefore).toBe(history.length);
    expect(verifyCompaction({ before: history, after: result.messages, counter })).toEqual([]);
  });

  it('accepts a history rebuilt as equal objects, and returns the caller its own objects', async () => {
    const { compactor, state } = setUp();
    await compactor.prepare(base, { sessionId });
    await settle();
    const rebuilt = structuredClone(later);
    const result = await compactor.prepare(rebuilt, { sessionId });
    expect(state.calls).toBe(1);
    expect(verifyCompaction({ before: rebuilt, after: result.messages, counter })).toEqual([]);
    expect(result.messages).toContain(rebuilt[0]);
  });

  it('stops and drops the job when the session is forgotten while it runs', async () => {
    const { compactor, state, hold, events, store } = setUp();
    hold();
    await compactor.prepare(base, { sessionId });
    await settle();
    compactor.forget(sessionId);
    expect(events.background.at(-1)).toEqual({ status: 'discarded', sessionId, reason: 'session-closed' });
    expect(state.inputs[0]?.abortSignal?.aborted).toBe(true);
    state.release();
    await settle();
    expect(events.background.filter((event) => event.status === 'discarded')).toHaveLength(1);
    // Its abort is what dropping it means, not an error to report.
    expect(events.error).toEqual([]);
    const result = await compactor.prepare(beyond, { sessionId });
    expect(state.calls).toBe(2);
    expect(result.event).toMatchObject({ round: 1, messagesBefore: beyond.length });
    expect(await store.list(sessionId)).toHaveLength(1);
  });

  it('never runs a job dropped before it started', async () => {
    const { compactor, state, events } = setUp();
    await compactor.prepare(base, { sessionId });
    compactor.forget(sessionId);
    await settle();
    expect(state.calls).toBe(0);
    expect(events.background.map((event) => event.status)).toEqual(['started', 'discarded']);
    expect(events.error).toEqual([]);
  });

  it('reports a failing background compaction as events, and compacts in line at the trigger', async () => {
    const { compactor, state, events } = setUp();
    state.failNext = 1;
    await expect(compactor.prepare(base, { sessionId })).resolves.toMatchObject({ compacted: false });
    await settle();
    const discarded = events.background.at(-1);
    expect(discarded).toMatchObject({ status: 'discarded', reason: 'failed' });
    expect(events.error).toHaveLength(1);
    expect(events.error[0]).toMatchObject({ source: 'compaction', sessionId });
    // Not started again at every step for the same history.
    await compactor.prepare([...base, ...turns(1, 'one')].slice(0, base.length + 2), { sessionId });
    expect(state.calls).toBe(1);
    const result = await compactor.prepare(later, { sessionId });
    expect(state.calls).toBe(2);
    expect(result.compacted).toBe(true);
    expect(result.event?.messagesBefore).toBe(later.length);
    expect(events.background.filter((event) => event.status === 'used')).toEqual([]);
  });

  it('stops waiting for the job when the caller aborts, and keeps the job for the next call', async () => {
    const { compactor, state, hold } = setUp();
    hold();
    await compactor.prepare(base, { sessionId });
    const controller = new AbortController();
    const aborted = compactor.prepare(beyond, { sessionId, abortSignal: controller.signal });
    controller.abort(new Error('the user pressed escape'));
    await expect(aborted).rejects.toThrow(CompactionAbortedError);
    state.release();
    const result = await compactor.prepare(beyond, { sessionId });
    expect(result.compacted).toBe(true);
    expect(state.calls).toBe(1);
  });

  it('uses one job once when prepares race, below and at the trigger', async () => {
    const { compactor, state, hold, events, store } = setUp();
    hold();
    await Promise.all([compactor.prepare(base, { sessionId }), compactor.prepare(base, { sessionId })]);
    expect(events.background.filter((event) => event.status === 'started')).toHaveLength(1);
    const racing = Promise.all([
      compactor.prepare(beyond, { sessionId }),
      compactor.prepare(beyond, { sessionId }),
    ]);
    state.release();
    const [first, second] = await racing;
    expect(state.calls).toBe(1);
    expect(first.messages).toEqual(second.messages);
    expect(events.background.filter((event) => event.status === 'used')).toHaveLength(1);
    expect(events.end).toHaveLength(1);
    expect(await store.list(sessionId)).toHaveLength(1);
  });

  it('drops a result that another compaction of the session superseded', async () => {
    const { compactor, state, hold, events } = setUp();
    hold();
    await compactor.prepare(base, { sessionId });
    const manual = compactor.compact(base, { sessionId });
    state.release();
    await manual;
    const result = await compactor.prepare(beyond, { sessionId });
    expect(events.background.at(-1)).toMatchObject({ status: 'discarded', reason: 'superseded' });
    expect(state.calls).toBe(3);
    expect(result.event?.round).toBe(2);
  });

  it('compacts again in line when the result with the new turns is over the trigger, and counts nothing saved', async () => {
    const { compactor, state, events } = setUp();
    await compactor.prepare(base, { sessionId });
    await settle();
    const long = [...base, ...turns(20, 'long')];
    const result = await compactor.prepare(long, { sessionId });
    expect(state.calls).toBe(2);
    expect(events.background.at(-1)).toMatchObject({ status: 'used', compactedAgain: true, savedMs: 0 });
    expect(result.compacted).toBe(true);
    expect(counter.count(result.messages)).toBeLessThanOrEqual(compactor.budget.trigger!);
    expect(verifyCompaction({ before: long, after: result.messages, counter })).toEqual([]);
  });

  it('does not compact the result again when the turns since alone are under the target, and starts the next job', async () => {
    const { compactor, state, events, store } = setUp();
    // A long task is kept verbatim: the result stays large, and with the turns since it is over the trigger.
    const first = [user(`The task: ${'lorem ipsum dolor '.repeat(470)}`), ...turns(1, 'first')];
    const { limit, trigger, target } = compactor.budget;
    expect(counter.count(first)).toBeGreaterThan(limit * background.prepareAt);
    await compactor.prepare(first, { sessionId });
    await settle();
    const history = [...first, ...turns(4, 'since')];
    expect(counter.count(history.slice(first.length))).toBeLessThanOrEqual(target);
    expect(counter.count(history)).toBeLessThanOrEqual(limit);
    const result = await compactor.prepare(history, { sessionId });
    expect(events.background.at(-2)).toMatchObject({ status: 'used', compactedAgain: false });
    expect(state.calls).toBe(1);
    expect(await store.list(sessionId)).toHaveLength(1);
    expect(counter.count(result.messages)).toBeGreaterThan(trigger!);
    expect(counter.count(result.messages)).toBeLessThanOrEqual(limit);
    // Over the trigger still: the next job compacts what was just sent, to be used at a later call.
    expect(events.background.at(-1)).toMatchObject({ status: 'started', messages: result.messages.length });
    await settle();
    expect(state.calls).toBe(2);
    const next = await compactor.prepare([...result.messages, ...turns(2, 'next')], { sessionId });
    expect(next.compacted).toBe(true);
    expect(events.background.at(-1)).toMatchObject({ status: 'used', compactedAgain: false });
  });

  it('over the limit, drops a running job whose result with the turns since would not do, and compacts in line', async () => {
    const { compactor, state, hold, events } = setUp();
    hold();
    await compactor.prepare(base, { sessionId });
    await settle();
    const history = [...base, ...turns(7, 'many')];
    expect(counter.count(history.slice(base.length))).toBeGreaterThan(compactor.budget.target);
    const atLimit = compactor.prepare(history, { sessionId });
    await settle();
    expect(events.background.at(-1)).toMatchObject({ status: 'discarded', reason: 'superseded' });
    state.release();
    const result = await atLimit;
    expect(state.calls).toBe(2);
    expect(result.event).toMatchObject({ round: 1, messagesBefore: history.length });
    expect(counter.count(result.messages)).toBeLessThanOrEqual(compactor.budget.limit);
  });

  it('is off without the setting, and checks the setting', () => {
    const { strategy } = controlledStrategy();
    const invalid =
      (settings: object, budgetOptions: object = budget) =>
      () =>
        createCompactor({
          strategy,
          budget: { ...budget, ...budgetOptions },
          counter,
          background: settings as never,
        });
    expect(invalid({ prepareAt: 0.9 })).toThrow(/prepareAt: .* below the trigger/);
    expect(invalid({ prepareAt: 0.3 })).toThrow(/above the target/);
    expect(invalid({ prepareAt: 0.6 }, { trigger: false })).toThrow(/needs an automatic trigger/);
    expect(invalid({ prepareAt: 0.6, maximumConcurrent: 0 })).toThrow(
      /maximumConcurrent: must be a positive integer/,
    );
    expect(invalid({ prepareAt: Number.NaN })).toThrow(/must be a positive number/);
  });

  it('waits for new messages after a compaction before it starts another (no compaction loop)', async () => {
    const { strategy, state } = controlledStrategy();
    const { target } = createCompactor({ strategy, budget, counter }).budget;
    const prepareAt = target + 1;
    const compactor = createCompactor({ strategy, budget, counter, background: { prepareAt } });
    const events = recordEvents(compactor);
    await compactor.prepare(base, { sessionId });
    await settle();
    const used = await compactor.prepare(later, { sessionId });
    expect(events.background.at(-1)).toMatchObject({ status: 'used', compactedAgain: false });
    const next = [...used.messages, user(`Read this too: ${'z'.repeat(2400)}`)];
    // Over `prepareAt` already, but only one message after the compaction.
    expect(compactor.check(next).tokens).toBeGreaterThan(prepareAt);
    await compactor.prepare(next, { sessionId });
    expect(state.calls).toBe(1);
    await compactor.prepare([...next, ...turns(1, 'more')], { sessionId });
    await settle();
    expect(state.calls).toBe(2);
  });

  it('does nothing ahead of the trigger without the setting', async () => {
    const { strategy, state } = controlledStrategy();
    const compactor = createCompactor({ strategy, budget, counter });
    const events = recordEvents(compactor);
    const result = await compactor.prepare(base, { sessionId });
    expect(result).toEqual({ messages: base, compacted: false, skipped: 'under-trigger', failures: [] });
    await settle();
    expect(state.calls).toBe(0);
    expect(events.background).toEqual([]);
  });

  it('stops the job of a session evicted beyond maximumSessions', async () => {
    const { strategy, state, hold } = controlledStrategy();
    const compactor = createCompactor({ strategy, budget, counter, background, maximumSessions: 1 });
    const events = recordEvents(compactor);
    hold();
    await compactor.prepare(base, { sessionId: 'first' });
    await settle();
    await compactor.prepare(base, { sessionId: 'second' });
    expect(events.background.map(({ status, sessionId }) => `${status} ${sessionId}`)).toEqual([
      'started first',
      'discarded first',
      'started second',
    ]);
    expect(events.background[1]).toMatchObject({ reason: 'session-closed' });
    expect(state.inputs[0]?.abortSignal?.aborted).toBe(true);
  });

  it('runs at most maximumConcurrent jobs across sessions', async () => {
    const { strategy, state, hold } = controlledStrategy();
    const compactor = createCompactor({
      strategy,
      budget,
      counter,
      background: { ...background, maximumConcurrent: 2 },
    });
    const events = recordEvents(compactor);
    hold();
    for (const id of ['a', 'b', 'c']) await compactor.prepare(base, { sessionId: id });
    expect(events.background.map((event) => event.sessionId)).toEqual(['a', 'b']);
    state.release();
    await settle();
    await compactor.prepare(base, { sessionId: 'c' });
    expect(events.background.map((event) => event.sessionId)).toEqual(['a', 'b', 'c']);
  });
});

import { BudgetUnreachableError, CompactionError, RuleViolationError } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../__fixtures__/temporary-directory.js';
import { createInstalledStrategyRegistry } from '../config/installed-strategies.js';
import { resolveSettings } from '../config/resolve-settings.js';
import { HttpError } from '../errors/http-error.js';
import { largeAgentRequest } from '../serve/__fixtures__/large-conversation.js';
import { CompactionSession } from '../serve/compaction-session.js';
import { readRequestConversation } from '../serve/request-conversation.js';
import { createRequestPolicy } from '../serve/request-policy.js';
import {
  type CompactionThreadAnswer,
  type CompactionThreadTask,
  compactionWorkerScript,
} from './compact-task.js';
import { carryError, rebuildError } from './strategy-task.js';
import { type StrategyThreads, strategyThreads } from './threaded-strategy.js';
import { WorkerPool } from './worker-pool.js';

const script = new URL('../__fixtures__/scripted-worker.mjs', import.meta.url);

/**
 * A session of a large conversation whose compactions run on `threads`: over the target, so that a manual
 * compaction has work to do (under it, the compaction is a no-op that never reaches a thread).
 */
async function largeSession(threads: StrategyThreads) {
  const registry = await createInstalledStrategyRegistry();
  const settings = resolveSettings(registry, {}, temporaryDirectory());
  const session = await CompactionSession.create('threads', settings, registry, undefined, { threads });
  const { messages } = await readRequestConversation(largeAgentRequest(400_000), undefined);
  session.messages = messages;
  expect(session.tokens()).toBeGreaterThan(session.budget().target);
  return session;
}

describe('strategies on compaction threads', () => {
  it('fail a compaction whose thread died with a 500 that says to retry, and end their threads on close', async () => {
    const pool = new WorkerPool<unknown, never>({ script, size: 1 });
    // The scripted thread dies on every task, the fallback's too.
    const threads = strategyThreads({ run: () => pool.run({ action: 'exit' }) }, 0, () =>
      expect.fail('the scripted thread sets itself up'),
    );
    const session = await largeSession(threads);
    const before = session.messages;
    const failure = await session.compact(undefined).catch((error: unknown) => error);
    expect(HttpError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ status: 500, errorCode: 'compaction-worker-failed' });
    expect((failure as Error).message).toContain('retry the request');
    // The session is as it was.
    expect(session.messages).toBe(before);
    await pool.close();
    expect(pool.threads).toBe(0);
  });

  it('compact on the event loop, and say so once, when the threads cannot set themselves up', async () => {
    const pool = new WorkerPool<unknown, never>({ script, size: 1, workerData: { unavailable: true } });
    const reports: string[] = [];
    const threads = strategyThreads({ run: (task) => pool.run(task) }, 0, (error) =>
      reports.push(error.message),
    );
    const session = await largeSession(threads);
    const result = await session.compact(undefined);
    expect(result.compacted).toBe(true);
    await session.compact('again');
    expect(reports).toEqual(['not set up']);
    expect(threads.usable).toBe(false);
    await pool.close();
  });

  it('run a strategy a thread cannot build on the event loop from then on', async () => {
    let asked = 0;
    const threads = strategyThreads(
      {
        run: async () => {
          asked++;
          return { kind: 'unbuildable', reason: 'needs what only the server has' };
        },
      },
      0,
      () => expect.fail('the threads are set up'),
    );
    const session = await largeSession(threads);
    const large = session.messages;
    expect((await session.compact(undefined)).compacted).toBe(true);
    const asking = asked;
    session.messages = large;
    expect((await session.compact(undefined)).compacted).toBe(true);
    // The strategy and its fallback each asked once; not again.
    expect(asking).toBeGreaterThan(0);
    expect(asked).toBe(asking);
    expect(threads.usable).toBe(true);
  });

  it('give back a strategy error as the thread threw it: class, code, message and fields', () => {
    const errors = [
      new BudgetUnreachableError({ target: 100, best: 250, limit: 200, reason: 'the task is over it' }),
      new RuleViolationError({
        strategy: 'pruning',
        violations: [{ rule: 'tool-pairing', message: 'a result without its call' }],
      }),
      new TypeError('not a function'),
    ];
    for (const error of errors) {
      // Through JSON, as plain data crosses threads.
      const rebuilt = rebuildError(JSON.parse(JSON.stringify(carryError(error))));
      expect(rebuilt.message).toBe(error.message);
      expect(rebuilt.name).toBe(error.name);
      expect(CompactionError.isInstance(rebuilt)).toBe(CompactionError.isInstance(error));
      expect(BudgetUnreachableError.isInstance(rebuilt)).toBe(BudgetUnreachableError.isInstance(error));
      expect(RuleViolationError.isInstance(rebuilt)).toBe(RuleViolationError.isInstance(error));
      expect({ ...rebuilt }).toEqual({ ...error });
    }
  });

  it("keep the messages a strategy kept as the session's own objects, as on the event loop", async () => {
    const registry = await createInstalledStrategyRegistry();
    const settings = resolveSettings(registry, {}, temporaryDirectory());
    const pool = new WorkerPool<CompactionThreadTask, CompactionThreadAnswer>({
      script: compactionWorkerScript,
      size: 1,
      workerData: {
        settings,
        policy: createRequestPolicy(settings.config, settings.provider),
        strategyNames: registry.names(),
        maxBodyBytes: 1024,
        idleMs: 60_000,
      },
    });
    const reports: string[] = [];
    const threads = strategyThreads(pool, 0, (error) => reports.push(error.message));
    const onAThread = await largeSession(threads);
    const onTheEventLoop = await largeSession(
      strategyThreads(pool, Number.POSITIVE_INFINITY, () => undefined),
    );
    const results = [];
    for (const session of [onAThread, onTheEventLoop]) {
      const before = session.messages;
      const result = await session.compact(undefined);
      expect(result.compacted).toBe(true);
      results.push({
        kept: result.messages.filter((message) => before.includes(message)).length,
        messages: JSON.stringify(result.messages),
        summary: result.event?.summary,
      });
    }
    await pool.close();
    expect(reports).toEqual([]);
    expect(results[0]!.kept).toBeGreaterThan(0);
    expect(results[0]).toEqual(results[1]);
  });
});

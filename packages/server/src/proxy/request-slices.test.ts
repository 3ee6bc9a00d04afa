import { createFastEstimator, createTokenCounter } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../__fixtures__/temporary-directory.js';
import { createInstalledStrategyRegistry } from '../config/installed-strategies.js';
import { resolveSettings } from '../config/resolve-settings.js';
import { largeAgentRequest } from '../serve/__fixtures__/large-conversation.js';
import { createThreadedCompactor } from '../workers/threaded-compactor.js';
import { PrefixMemory } from './prefix-memory.js';
import { PrefixUse } from './prefix-use.js';
import { RecentBodies } from './recent-bodies.js';
import { prepareRequest, type RequestCompactionContext, slicedBodyBytes } from './request-compaction.js';
import { UpstreamLimits } from './upstream-limits.js';

// A large request is prepared in slices: the event loop comes back between its stages (parsing, converting,
// counting, compacting, writing), so the proxy's status and its other clients are answered meanwhile. Counted
// in turns of the event loop, not timed: a slow machine takes as many turns.

async function compactionContext(): Promise<RequestCompactionContext> {
  const registry = await createInstalledStrategyRegistry();
  const settings = resolveSettings(registry, {}, temporaryDirectory());
  const counter = createTokenCounter(createFastEstimator());
  // On the event loop (no threads): every stage the proxy runs is here.
  const compactor = await createThreadedCompactor(
    settings.config,
    registry,
    undefined,
    { budget: { ...settings.budget, contextWindow: 400_000, trigger: 0.2, target: 0.1 }, counter },
    undefined,
  );
  return {
    compactor,
    memory: new PrefixMemory(undefined),
    limits: new UpstreamLimits(),
    prefixUse: new PrefixUse(),
    flights: new Map(),
    recentBodies: new RecentBodies(counter.estimator),
    compacted() {},
    learned() {},
    inSlot: (operation) => operation(),
  };
}

/**
 * Prepares `body`, noting the turn of the event loop (counted by an immediate that ticks on every turn) in which
 * each stage began: the count of the conversation, the compaction, and remembering its result.
 */
async function stageTurns(context: RequestCompactionContext, conversation: string, body: Buffer) {
  let turn = 0;
  let preparing = true;
  const tick = () => {
    if (!preparing) return;
    turn++;
    setImmediate(tick);
  };
  setImmediate(tick);
  const { compactor, memory } = context;
  const stages: Record<string, number> = {};
  const noted = <Arguments extends unknown[], Result>(
    stage: string,
    method: (...values: Arguments) => Result,
  ) => {
    return (...values: Arguments): Result => {
      stages[stage] ??= turn;
      return method(...values);
    };
  };
  const watched: RequestCompactionContext = {
    ...context,
    compactor: Object.assign(Object.create(compactor), {
      check: noted('count', compactor.check.bind(compactor)),
      prepare: noted('compact', compactor.prepare.bind(compactor)),
    }),
    memory: Object.assign(Object.create(memory), { set: noted('remember', memory.set.bind(memory)) }),
  };
  const prepared = await prepareRequest('openai-chat', body, conversation, watched);
  preparing = false;
  return { stages, prepared };
}

describe('compaction proxy: a large request prepared in slices', () => {
  it('hands the event loop back between the stages of its preparation', async () => {
    const context = await compactionContext();
    const body = Buffer.from(JSON.stringify(largeAgentRequest(1_000_000)));
    expect(body.length).toBeGreaterThan(slicedBodyBytes);
    // The first preparation loads the converters and the strategies, which reads files: not watched.
    await prepareRequest('openai-chat', body, 'warm-up', context);
    const { stages, prepared } = await stageTurns(context, 'watched', body);
    expect(prepared.event).toBeDefined();
    expect(prepared.body.length).toBeLessThan(body.length / 2);
    // Each stage in a turn of its own, later than the one before: in one go, the count and the compaction
    // began in the same turn, and the event loop came back only once the whole request was ready.
    expect(stages.compact).toBeGreaterThan(stages.count!);
    expect(stages.remember).toBeGreaterThan(stages.compact!);
  }, 60_000);

  it('remembers a compaction of a request that began with a remembered prefix, for the next request', async () => {
    const context = await compactionContext();
    const request = largeAgentRequest(1_000_000);
    const post = (messages: unknown[]) =>
      prepareRequest(
        'openai-chat',
        Buffer.from(JSON.stringify({ ...request, messages })),
        'conversation',
        context,
      );
    const sentMessages = (prepared: { body: Buffer }) =>
      (JSON.parse(prepared.body.toString('utf8')) as { messages: unknown[] }).messages;
    const first = await post(request.messages);
    expect(first.event).toBeDefined();
    // A large tool round more: over the trigger again, compacted again, its first turns the remembered prefix
    // (whose hashes are not computed a second time).
    const round = largeAgentRequest(600_000).messages.slice(2, -1);
    const grown = [...request.messages, ...round, { role: 'user', content: 'And the other module?' }];
    const second = await post(grown);
    expect(second.event).toBeDefined();
    // The next request starts with what the second compaction sent: every turn of its prefix was recognised.
    const next = [...grown, { role: 'assistant', content: 'Done.' }, { role: 'user', content: 'Thanks.' }];
    const third = await post(next);
    expect(third.event).toBeUndefined();
    const sent = sentMessages(second);
    expect(sentMessages(third).slice(0, sent.length)).toEqual(sent);
    expect(sentMessages(third)).toHaveLength(sent.length + 2);
  }, 60_000);
});

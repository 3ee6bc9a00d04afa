import { createCompactor, createTokenCounter, type Message } from '@compaction/core';
import { recordOutputs } from './final-context.js';
import type { Policy } from './policies.js';

/** Seconds between calls where a transcript records no time, as in the simulation. */
const secondsBetweenCalls = 30;

/** One compaction of a replay: the call it came before, and the context the model was sent. */
export interface CompactionPoint {
  /** Index, in the replayed transcript, of the assistant message whose call followed the compaction. */
  messageIndex: number;
  context: Message[];
}

/** What {@link replayCompactions} is given. */
export interface ReplayCase {
  messages: readonly Message[];
  callTimes?: readonly (number | undefined)[];
  policy: Policy;
  contextWindow: number;
  /** The Compactor's `planTools`: `false` turns plan pinning off; absent, the default tools are pinned. */
  planTools?: readonly string[] | false;
}

/**
 * Replays a transcript as the agent loop of `@compaction/simulation` does (a call before each assistant
 * message, on the transcript's clock, messages capped as they arrive where the policy caps them), through a
 * Compactor of its own rather than the simulation's, so that Compactor settings the simulation does not take
 * (`planTools`) can be set, and returns the context of every call that followed a compaction. It measures no
 * cost: the main evaluation does.
 */
export async function replayCompactions(replay: ReplayCase): Promise<CompactionPoint[]> {
  const counter = createTokenCounter();
  const run = replay.policy.create(counter);
  let now = 0;
  // As in the main evaluation: Compaction's own policies archive, with handles in their placeholders.
  const recording = recordOutputs(run.strategy, replay.policy.kind !== 'reference');
  const compactor = createCompactor({
    strategy: recording.strategy,
    budget: replay.policy.budget(replay.contextWindow),
    counter,
    ...(run.provider === undefined ? {} : { provider: run.provider }),
    ...(run.triggerPolicy === undefined ? {} : { triggerPolicy: run.triggerPolicy(() => now) }),
    ...(replay.planTools === undefined ? {} : { planTools: replay.planTools }),
  });
  const points: CompactionPoint[] = [];
  let history: Message[] = [];
  let previousCall: number | undefined;
  for (const [index, message] of replay.messages.entries()) {
    if (message.role === 'assistant' && history.length > 0) {
      now =
        replay.callTimes?.[index] ??
        (previousCall === undefined ? 0 : previousCall + secondsBetweenCalls * 1000);
      previousCall = now;
      const result = await compactor.prepare(history).catch(() => undefined);
      if (result?.compacted === true) points.push({ messageIndex: index, context: result.messages });
      if (result !== undefined) history = result.messages;
    }
    history = [...history, run.ingest?.(message) ?? message];
  }
  return points;
}

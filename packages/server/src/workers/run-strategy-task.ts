import {
  type CompactionStrategy,
  createFastEstimator,
  createTokenCounter,
  type Message,
  resolveCompactionConfig,
  type StrategyConfig,
  type StrategyRegistry,
} from '@compaction/core';
import { carryError, type StrategyAnswer, type StrategyTask } from './strategy-task.js';

/** The strategies a thread built, by their config entry as JSON; a few configs cover a server's requests. */
const built = new Map<string, Promise<CompactionStrategy>>();
const mostBuilt = 64;

// The servers' counters use the fast estimator and are never anchored on a provider's usage: this one counts
// the same.
const counter = createTokenCounter(createFastEstimator());

function strategyOf(registry: StrategyRegistry, entry: StrategyTask['entry']): Promise<CompactionStrategy> {
  const key = JSON.stringify(entry);
  let strategy = built.get(key);
  if (strategy === undefined) {
    strategy = resolveCompactionConfig(
      { strategy: entry as StrategyConfig | StrategyConfig[] },
      registry,
    ).then((resolved) => resolved.strategy);
    // One that cannot be built is tried again next time rather than kept.
    strategy.catch(() => built.delete(key));
    built.set(key, strategy);
    for (const oldest of built.keys()) {
      if (built.size <= mostBuilt) break;
      built.delete(oldest);
    }
  }
  return strategy;
}

/**
 * Runs a session's or proxied conversation's strategy on this thread: its output with each message it kept
 * given as its index in the input, or the error it threw, as plain data.
 */
export async function runStrategyTask(
  registry: StrategyRegistry,
  task: StrategyTask,
): Promise<StrategyAnswer> {
  let strategy: CompactionStrategy;
  try {
    strategy = await strategyOf(registry, task.entry);
  } catch (error) {
    return { kind: 'unbuildable', reason: (error as Error)?.message ?? String(error) };
  }
  try {
    const messages = JSON.parse(Buffer.from(task.messages).toString('utf8')) as Message[];
    const output = await strategy.compact({
      messages,
      counter,
      budget: task.budget,
      trigger: task.trigger,
      round: task.round,
      ...(task.sessionId === undefined ? {} : { sessionId: task.sessionId }),
      ...(task.instructions === undefined ? {} : { instructions: task.instructions }),
      ...(task.archive === undefined ? {} : { archive: task.archive }),
    });
    const indexes = new Map(messages.map((message, index) => [message, index]));
    return {
      kind: 'output',
      messages: output.messages.map((message) => indexes.get(message) ?? message),
      ...(output.summary === undefined ? {} : { summary: output.summary }),
      ...(output.details === undefined ? {} : { details: output.details }),
      ...(output.archived === undefined ? {} : { archived: output.archived }),
    };
  } catch (error) {
    return { kind: 'error', error: carryError(error) };
  }
}

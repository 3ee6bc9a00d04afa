/**
 * The contenders of the strategy benchmark, each in a counter state: a strategy called directly, the same
 * strategy through `Compactor.compact`, and the peers. Each checks its output against the same target.
 */
import {
  type AnchoredTokenCounter,
  type CompactionOutput,
  type CompactionResult,
  type CompactionStrategy,
  createCompactor,
  createFastEstimator,
  createTokenCounter,
  type Message,
} from '@compaction/core';
import type { BaseMessage } from '@langchain/core/messages';
import type { ModelMessage } from 'ai';
import {
  countModelMessageTexts,
  fromModelMessages,
  type ModelHistory,
  pruneWithAiSdk,
  toModelMessages,
} from './ai-sdk-peer.js';
import { fromLangChain, type LangChainHistory, toLangChain, trimWithLangChain } from './langchain-peer.js';
import { outputProblems } from './output-problems.js';
import type { Contender } from './timing.js';

/**
 * Warm: a counter that has already counted the history, shared by every run, as after `Compactor.check` in
 * an agent loop. Cold: a fresh counter per run, made untimed, so the run also estimates every message.
 */
export type CounterState = 'warm' | 'cold';

/** A contender in either counter state. */
export type TimedWork = (state: CounterState) => Contender;

/** What a contender is asked to do: compact `messages` to `target` tokens or under, within `limit`. */
export interface Job {
  messages: readonly Message[];
  limit: number;
  target: number;
}

/** Makes the counter of each run in the given state: the warm one, shared, has counted the history already. */
function counterFor(state: CounterState, messages: readonly Message[]): () => AnchoredTokenCounter {
  if (state === 'cold') return () => createTokenCounter();
  const warmCounter = createTokenCounter();
  warmCounter.count(messages);
  return () => warmCounter;
}

export function strategyAlone(strategy: CompactionStrategy, job: Job): TimedWork {
  const budget = { limit: job.limit, target: job.target };
  return (state) => {
    const nextCounter = counterFor(state, job.messages);
    return {
      prepare: () => {
        const counter = nextCounter();
        return () => strategy.compact({ messages: job.messages, counter, budget, trigger: 'auto', round: 1 });
      },
      problems: (output) => outputProblems(job.messages, (output as CompactionOutput).messages, job.target),
    };
  };
}

/**
 * The same strategy through `Compactor.compact` with the same limit and target: what an application pays,
 * with the history repair, the verification and the event on top of the strategy. A fresh Compactor per run,
 * made untimed, over the run's counter.
 */
export function throughCompactor(strategy: CompactionStrategy, job: Job): TimedWork {
  const budget = {
    contextWindow: job.limit,
    reservedOutputTokens: 0,
    safetyMargin: 0,
    trigger: false as const,
    target: job.target,
  };
  return (state) => {
    const nextCounter = counterFor(state, job.messages);
    return {
      prepare: () => {
        const compactor = createCompactor({ strategy, budget, counter: nextCounter() });
        return () => compactor.compact(job.messages, { trigger: 'auto' });
      },
      problems: (output) => {
        const result = output as CompactionResult;
        if (!result.compacted) return [`the Compactor did not compact (${result.skipped ?? 'no reason'})`];
        return outputProblems(job.messages, result.messages, job.target);
      },
    };
  };
}

/** LangChain.js `trimMessages` counting with the same memoized counter, in the same counter state as ours. */
export function trimMessagesPeer(job: Job): TimedWork {
  const history: LangChainHistory = toLangChain(job.messages);
  return (state) => {
    const nextCounter = counterFor(state, job.messages);
    return {
      prepare: () => {
        const counter = nextCounter();
        return () => trimWithLangChain(history, counter, job.target);
      },
      problems: (output) => {
        try {
          return outputProblems(job.messages, fromLangChain(history, output as BaseMessage[]), job.target);
        } catch (error) {
          return [(error as Error).message];
        }
      },
    };
  };
}

/** The AI SDK's `pruneMessages`, which counts nothing, so it runs the same way in both counter states. */
export function pruneMessagesPeer(job: Job, keepMessages: number): TimedWork {
  const history: ModelHistory = toModelMessages(job.messages);
  return () => ({
    prepare: () => () => pruneWithAiSdk(history, keepMessages),
    problems: (output) => prunedProblems(job, history, output as ModelMessage[]),
  });
}

/**
 * `pruneMessages` then counting the texts it kept with a fresh fast estimator: our strategies count their own
 * output so they can stop at a target, and `pruneMessages` counts nothing, so this puts that work on both
 * sides.
 */
export function pruneMessagesCountingPeer(job: Job, keepMessages: number): TimedWork {
  const history: ModelHistory = toModelMessages(job.messages);
  return () => ({
    prepare: () => {
      const estimator = createFastEstimator();
      return () => {
        const kept = pruneWithAiSdk(history, keepMessages);
        return { kept, tokens: countModelMessageTexts(kept, estimator) };
      };
    },
    problems: (output) => prunedProblems(job, history, (output as { kept: ModelMessage[] }).kept),
  });
}

function prunedProblems(job: Job, history: ModelHistory, kept: readonly ModelMessage[]): string[] {
  return outputProblems(job.messages, fromModelMessages(job.messages, history, kept), job.target);
}

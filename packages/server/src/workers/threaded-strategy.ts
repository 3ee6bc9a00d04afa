import type {
  CompactionInput,
  CompactionOutput,
  CompactionStrategy,
  JSONValue,
  Message,
} from '@compaction/core';
import { mapInSlices, nextTurn } from './event-loop-slices.js';
import { messagesJsonBytesInSlices } from './messages-json.js';
import { rebuildError, type StrategyAnswer, type StrategyTask } from './strategy-task.js';
import { WorkerUnavailableError } from './worker-pool.js';

/**
 * Smallest history, in tokens, whose strategy runs on a thread: 64,000, about the 256 KiB of text from which
 * `POST /v1/compact` bodies go to a thread. Below it the strategy takes a few milliseconds, about what encoding
 * the history for a thread costs. Tokens, not bytes: the Compactor has counted them already, where measuring
 * the bytes of a history just read would take as long as encoding it.
 */
export const defaultThreadedHistoryTokens = 64_000;

/** Where strategy runs go: the server's pool of compaction threads. */
export interface StrategyThreads {
  run(task: StrategyTask, transfer: ArrayBuffer[]): Promise<StrategyAnswer>;
  /** Histories of this many tokens or more run on a thread; smaller ones on the event loop. */
  minimumTokens: number;
  /** False once the threads could not set themselves up: every strategy then runs on the event loop. */
  readonly usable: boolean;
  /** Told when the threads cannot set themselves up (a strategy the server has that no package provides). */
  unavailable(error: WorkerUnavailableError): void;
}

/**
 * The {@link StrategyThreads} of a pool of compaction threads; `report` hears once that the threads cannot set
 * themselves up.
 */
export function strategyThreads(
  pool: { run(task: StrategyTask, transfer: ArrayBuffer[]): Promise<unknown> },
  minimumTokens: number,
  report: (error: WorkerUnavailableError) => void,
): StrategyThreads {
  let usable = true;
  return {
    run: (task, transfer) => pool.run(task, transfer) as Promise<StrategyAnswer>,
    minimumTokens,
    get usable() {
      return usable;
    },
    unavailable(error) {
      if (usable) report(error);
      usable = false;
    },
  };
}

/**
 * A strategy that runs on a compaction thread when the history is large, and on the event loop otherwise or
 * when the threads cannot build it. The thread builds the same strategy from the same config, by name, and
 * counts with the same estimator (the fast one, which the servers' counters use, never anchored on a provider's
 * usage), so it returns the same output; messages it kept come back as their index and are the caller's own
 * objects again. What the Compactor does around the strategy (repair, counting, verification, the store, the
 * events) stays with the caller.
 */
export function threadedStrategy(
  inline: CompactionStrategy,
  entry: JSONValue,
  threads: StrategyThreads,
): CompactionStrategy {
  // False once a thread could not build this strategy: it runs on the event loop from then on.
  let buildable = true;
  return {
    specificationVersion: 'v1',
    name: inline.name,
    async compact(input: CompactionInput): Promise<CompactionOutput> {
      const small = input.counter.count(input.messages) < threads.minimumTokens;
      if (!threads.usable || !buildable || small) {
        return inline.compact(input);
      }
      // In a buffer of its own, to move whole; each message encoded once while it lives, in slices of the
      // event loop, which a large history would otherwise hold for tens of milliseconds.
      const messages = await messagesJsonBytesInSlices(input.messages);
      const task: StrategyTask = {
        kind: 'strategy',
        entry,
        messages,
        budget: { limit: input.budget.limit, target: input.budget.target },
        trigger: input.trigger,
        round: input.round,
        ...(input.sessionId === undefined ? {} : { sessionId: input.sessionId }),
        ...(input.instructions === undefined ? {} : { instructions: input.instructions }),
        ...(input.archive === undefined ? {} : { archive: input.archive }),
      };
      let answer: StrategyAnswer;
      try {
        answer = await threads.run(task, [messages.buffer as ArrayBuffer]);
      } catch (error) {
        if (!(error instanceof WorkerUnavailableError)) throw error;
        threads.unavailable(error);
        return inline.compact(input);
      }
      input.abortSignal?.throwIfAborted();
      if (answer.kind === 'unbuildable') {
        buildable = false;
        return inline.compact(input);
      }
      if (answer.kind === 'error') throw rebuildError(answer.error);
      const output = answer.messages.map((message) => keptOrNew(input.messages, message));
      // The Compactor counts and checks the result as soon as it has it, in one go: the messages the thread
      // wrote are counted here first, in slices (the counter keeps each message's count), and the check starts
      // in a turn of the event loop of its own.
      await mapInSlices(output, (message) => input.counter.countMessage(message));
      await nextTurn();
      return {
        messages: output,
        ...(answer.summary === undefined ? {} : { summary: answer.summary }),
        ...(answer.details === undefined ? {} : { details: answer.details }),
        ...(answer.archived === undefined ? {} : { archived: answer.archived }),
      };
    },
  };
}

function keptOrNew(input: readonly Message[], message: number | Message): Message {
  if (typeof message !== 'number') return message;
  const kept = input[message];
  if (kept === undefined)
    throw new Error(`a compaction thread returned message ${message} of ${input.length}`);
  return kept;
}

import type { SimulationResult } from '@compaction/cli';
import type { CompactionStrategy, Message, TokenCounter } from '@compaction/core';

/** A strategy that remembers every history it returned, so the context of a simulation can be rebuilt. */
export interface RecordingStrategy {
  strategy: CompactionStrategy;
  outputs: Message[][];
}

/** Wraps a strategy to record its outputs (it is otherwise unchanged). */
export function recordOutputs(strategy: CompactionStrategy): RecordingStrategy {
  const outputs: Message[][] = [];
  return {
    outputs,
    strategy: {
      specificationVersion: 'v1',
      name: strategy.name,
      async compact(input) {
        const output = await strategy.compact(input);
        outputs.push(output.messages);
        return output;
      },
    },
  };
}

/**
 * The context at the end of a simulated run: the output of the last compaction the Compactor accepted,
 * followed by every message replayed after it (all messages when nothing was compacted). The accepted
 * output is the newest recorded one with the message and token counts of the last compaction step (a later
 * attempt may have been rejected). Checked against the size the simulation reports for its last call.
 */
export function finalContext(
  messages: readonly Message[],
  result: SimulationResult,
  outputs: readonly Message[][],
  counter: TokenCounter,
): Message[] {
  const step = result.steps.findLast((candidate) => candidate.compaction !== undefined);
  if (step === undefined) return [...messages];
  const compaction = step.compaction!;
  const output = outputs.findLast(
    (candidate) =>
      candidate.length === compaction.messagesAfter && counter.count(candidate) === compaction.tokensAfter,
  );
  if (output === undefined) throw new Error('the accepted compaction output was not recorded');
  const context = [...output, ...messages.slice(step.messageIndex)];
  const last = result.steps.at(-1)!;
  const lastContext = context.slice(0, context.length - (messages.length - last.messageIndex));
  if (counter.count(lastContext) !== last.contextTokens) {
    throw new Error('the rebuilt context does not match the simulation');
  }
  return context;
}

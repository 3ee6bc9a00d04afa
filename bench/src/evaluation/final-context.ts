import type { ArchivedItem, CompactionStrategy, Message, TokenCounter } from '@compaction/core';
import type { SimulationResult } from '@compaction/simulation';

/**
 * A strategy that remembers every history it returned, so the context of a simulation can be rebuilt, and
 * everything it archived, by handle, as a session's store would keep it for the `recall` tool.
 */
export interface RecordingStrategy {
  strategy: CompactionStrategy;
  outputs: Message[][];
  archived: Map<string, ArchivedItem>;
}

/**
 * Wraps a strategy to record its outputs. With `archive`, it runs as under a Compactor that archives (its
 * placeholders name handles, as users with a store get them); otherwise it is unchanged.
 */
export function recordOutputs(strategy: CompactionStrategy, archive = false): RecordingStrategy {
  const outputs: Message[][] = [];
  const archived = new Map<string, ArchivedItem>();
  return {
    outputs,
    archived,
    strategy: {
      specificationVersion: 'v1',
      name: strategy.name,
      async compact(input) {
        const output = await strategy.compact(archive ? { ...input, archive: true } : input);
        outputs.push(output.messages);
        for (const item of output.archived ?? []) archived.set(item.handle, item);
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

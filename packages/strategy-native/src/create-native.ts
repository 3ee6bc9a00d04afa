import type { NativeCompaction } from '@compaction/core';
import {
  assertValidHistory,
  type CompactionInput,
  type CompactionOutput,
  type CompactionStrategy,
  compactionMetadataOf,
  type JSONObject,
  type Message,
  withCompactionMetadata,
} from '@compaction/core';

/** Settings of {@link createNative}. */
export interface NativeSettings {
  /** The provider's own compaction; without one (or for a model that has none) the fallback runs. */
  nativeCompaction?: NativeCompaction | undefined;
  /** The local strategy that runs where native compaction cannot: any strategy or pipeline. */
  fallback: CompactionStrategy;
}

/**
 * The `native` strategy: the provider compacts the older span on its side (no summarizer call of ours, and
 * the provider's block or item is what the model reads best), and the local `fallback` runs where it cannot.
 *
 * The span is everything between the leading system messages and the newest user request; the newest user
 * request and what follows it are kept as they are, so the result keeps core's rules. The native result is
 * used when it is at or under the target; otherwise, and when the model has no native compaction, the
 * span holds a pinned or system message (which cannot stay verbatim before a compaction block), the
 * Compactor archives (`archive`: a provider's block cannot name recall handles), there is nothing older to
 * compact, or the provider's call fails, the fallback compacts the input instead. `details.native` says
 * which way it went and why. What the provider returns is marked with its name (`provider`): it stands for
 * the opening as well, which the provider reads from it.
 */
export function createNative(settings: NativeSettings): CompactionStrategy {
  const { nativeCompaction, fallback } = settings;
  return {
    specificationVersion: 'v1',
    name: 'native',
    async compact(input): Promise<CompactionOutput> {
      const reason = await (async (): Promise<string | CompactionOutput> => {
        if (nativeCompaction === undefined) return 'no native compaction configured';
        // The provider's block or item cannot name recall handles: what it replaced would be out of reach.
        if (input.archive === true) return 'archiving on: a provider compaction cannot name what it replaced';
        if (!nativeCompaction.supported())
          return `the ${nativeCompaction.provider} model has no native compaction`;
        return compactNatively(nativeCompaction, input);
      })();
      if (typeof reason !== 'string') return reason;
      const output = await fallback.compact(input);
      const native: JSONObject = { used: false, reason, fallback: fallback.name };
      return { ...output, details: { ...output.details, native } };
    },
  };
}

/** The native result, or why the fallback runs instead. */
async function compactNatively(
  nativeCompaction: NativeCompaction,
  input: CompactionInput,
): Promise<string | CompactionOutput> {
  const { messages, counter, budget } = input;
  // Malformed input gets the same typed error as from every other strategy, before any provider call.
  assertValidHistory(messages);
  const head = leadingSystemMessages(messages);
  const newest = lastIndexOf(messages, (message) => message.role === 'user');
  if (newest <= head.length) return 'nothing older than the newest user request to compact';
  const span = messages.slice(head.length, newest);
  if (span.some((message) => compactionMetadataOf(message)?.pinned === true)) {
    return 'a pinned message is in the span to compact';
  }
  // A system message after the first user message (a developer message among the opening) stays verbatim.
  if (span.some((message) => message.role === 'system')) return 'a system message is in the span to compact';
  let compacted: Message[];
  try {
    compacted = await nativeCompaction.compact({
      messages: [...head, ...span],
      ...(input.instructions === undefined ? {} : { instructions: input.instructions }),
      ...(input.abortSignal === undefined ? {} : { abortSignal: input.abortSignal }),
    });
  } catch (error) {
    input.abortSignal?.throwIfAborted();
    return `the ${nativeCompaction.provider} compaction failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (compacted.length === 0 || compacted.some((message) => message.role === 'system')) {
    return `the ${nativeCompaction.provider} compaction returned no usable messages`;
  }
  // Marked with the provider, which verification reads: the provider's compaction stands for the opening too.
  const marked = compacted.map((message) =>
    withCompactionMetadata(message, { kind: 'summary', provider: nativeCompaction.provider }),
  );
  const result = [...head, ...marked, ...messages.slice(newest)];
  const tokens = counter.count(result);
  // Over the target, the local strategy may do better (the provider's summary can even outgrow the span).
  if (tokens > budget.target) {
    return `the ${nativeCompaction.provider} compaction left ${tokens} tokens, over the target of ${budget.target}`;
  }
  const native: JSONObject = {
    used: true,
    provider: nativeCompaction.provider,
    compactedMessages: span.length,
  };
  return { messages: result, details: { native } };
}

function leadingSystemMessages(messages: readonly Message[]): Message[] {
  const end = messages.findIndex((message) => message.role !== 'system');
  return messages.slice(0, end === -1 ? messages.length : end);
}

function lastIndexOf(messages: readonly Message[], matches: (message: Message) => boolean): number {
  for (let index = messages.length - 1; index >= 0; index--) if (matches(messages[index]!)) return index;
  return -1;
}

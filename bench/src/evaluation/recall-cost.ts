import type { ArchivedItem, Message, TokenCounter } from '@compaction/core';
import type { PriceModel } from '@compaction/simulation';
import { recallHandlesIn } from '@compaction/strategy-kit';
import { contextText } from './context-text.js';
import { normalizeText, type Probe } from './probe.js';

/** What answering the lost but recoverable probes with the `recall` tool adds to a run. */
export interface RecallCost {
  /** Recall calls: one per archived item read, each answered by one more model request. */
  calls: number;
  /** Input tokens of those requests: the final context, the earlier recalls carried, the new call and its result. */
  inputTokens: number;
  /** The same weighted by price: with caching, what was sent before is a cache read, the call and its result a write. */
  billedInputTokens: number;
  /** The recall calls themselves, written by the model. */
  outputTokens: number;
}

/**
 * Prices the recall calls that would bring back the probes a context lost but still names a handle for. The
 * probes are asked at the end of the run, so the recalls are made then, one after another, in the order of
 * the probes: each reads one archived item (following handles inside items too, by the shortest chain), and
 * a probe found in an item already recalled costs nothing more. Each recall is one more model request: the
 * final context and the earlier recalls are read from the cache (they were sent before), the call and the
 * recalled text are written to it, and they are carried in every later recall's request. Without caching
 * every token is billed at the input price.
 */
export function recallCost(
  lost: readonly Probe[],
  context: readonly Message[],
  archived: ReadonlyMap<string, ArchivedItem>,
  counter: TokenCounter,
  prices: PriceModel,
): RecallCost {
  const read = prices.caching ? prices.cacheReadPerMillion / prices.inputPerMillion : 1;
  const write = prices.caching ? prices.cacheWritePerMillion / prices.inputPerMillion : 1;
  const cost: RecallCost = { calls: 0, inputTokens: 0, billedInputTokens: 0, outputTokens: 0 };
  const roots = recallHandlesIn(contextText(context));
  const recalled = new Set<string>();
  let recalledText = '';
  let carried = counter.count(context);
  for (const probe of lost) {
    if (recalledText.includes(probe.text)) continue;
    const chain = chainTo(probe.text, roots, archived);
    for (const handle of chain ?? []) {
      if (recalled.has(handle)) continue;
      const item = archived.get(handle)!;
      const call = recallMessages(handle, cost.calls, item.text);
      const added = counter.count(call);
      cost.calls++;
      cost.inputTokens += carried + added;
      cost.billedInputTokens += read * carried + write * added;
      cost.outputTokens += counter.countMessage(call[0]!);
      carried += added;
      recalled.add(handle);
      recalledText += `\n${normalizeText(item.text)}`;
    }
  }
  return cost;
}

/** The `index`th recall call and its result, as the agent loop adds them to the history. */
export function recallMessages(handle: string, index: number, text: string): Message[] {
  const toolCallId = `recall-${index}`;
  return [
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId, toolName: 'recall', input: { handle } }],
    },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId, toolName: 'recall', output: text }] },
  ];
}

/**
 * The shortest chain of handles, from one the context names, to an archived item that holds `text`
 * (whitespace collapsed); undefined when none does.
 */
function chainTo(
  text: string,
  roots: readonly string[],
  archived: ReadonlyMap<string, ArchivedItem>,
): string[] | undefined {
  const parents = new Map<string, string | undefined>();
  let frontier = roots.filter((handle) => archived.has(handle));
  for (const handle of frontier) parents.set(handle, undefined);
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const handle of frontier) {
      const item = archived.get(handle)!;
      if (normalizeText(item.text).includes(text)) {
        const chain = [handle];
        for (let parent = parents.get(handle); parent !== undefined; parent = parents.get(parent)) {
          chain.unshift(parent);
        }
        return chain;
      }
      for (const child of recallHandlesIn(item.text)) {
        if (parents.has(child) || !archived.has(child)) continue;
        parents.set(child, handle);
        next.push(child);
      }
    }
    frontier = next;
  }
  return undefined;
}

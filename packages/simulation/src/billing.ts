import type { Message, TokenCounter } from '@compaction/core';
import type { MeteredCall } from './metered-provider.js';
import { type BilledTokens, costOf, type PriceModel } from './price-model.js';

/** Bills one call: the context sent, against the previous call's context for the cached prefix. */
export function bill(
  context: readonly Message[],
  previous: readonly Message[],
  counter: TokenCounter,
  prices: PriceModel,
  outputTokens: number,
) {
  let shared = 0;
  while (shared < context.length && shared < previous.length && context[shared] === previous[shared])
    shared++;
  const contextTokens = counter.estimate(context);
  const cached = prices.caching ? counter.estimate(context.slice(0, shared)) : 0;
  const billed: BilledTokens = {
    uncachedInputTokens: prices.caching ? 0 : contextTokens,
    cacheReadTokens: cached,
    cacheWriteTokens: prices.caching ? contextTokens - cached : 0,
    outputTokens,
  };
  return { contextTokens, billed, cost: costOf(billed, prices) };
}

/**
 * Bills one call a compaction made. Usage reported with cache figures is taken as reported. A call that
 * continues the conversation (its first message is the first of the last request sent to the model: the
 * same object) is billed as a model call, by {@link bill}, against that request while the cache is warm.
 * Any other call is a request of its own, billed uncached: nothing in it was sent before.
 */
export function billCompactionCall(
  call: MeteredCall,
  previous: readonly Message[],
  warm: boolean,
  counter: TokenCounter,
  prices: PriceModel,
): BilledTokens {
  const { reported } = call;
  if (reported?.cacheReadTokens !== undefined || reported?.cacheWriteTokens !== undefined) {
    const read = reported.cacheReadTokens ?? 0;
    const write = reported.cacheWriteTokens ?? 0;
    return {
      uncachedInputTokens: Math.max(0, call.inputTokens - read - write),
      cacheReadTokens: read,
      cacheWriteTokens: write,
      outputTokens: call.outputTokens,
    };
  }
  const continues = prices.caching && previous.length > 0 && call.messages[0] === previous[0];
  if (!continues) {
    return {
      uncachedInputTokens: call.inputTokens,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: call.outputTokens,
    };
  }
  return bill(call.messages, warm ? previous : [], counter, prices, call.outputTokens).billed;
}

export function emptyBilled(): BilledTokens {
  return { uncachedInputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0 };
}

export function addBilled(total: BilledTokens, call: BilledTokens): BilledTokens {
  return {
    uncachedInputTokens: total.uncachedInputTokens + call.uncachedInputTokens,
    cacheReadTokens: total.cacheReadTokens + call.cacheReadTokens,
    cacheWriteTokens: total.cacheWriteTokens + call.cacheWriteTokens,
    outputTokens: total.outputTokens + call.outputTokens,
  };
}

/** One request of a run: what was sent to the model, and the tokens of its answer. */
export interface SentRequest {
  /** The messages sent: the same objects as the request before where they are the same messages. */
  messages: readonly Message[];
  /** Tokens of the model's answer. */
  outputTokens: number;
}

/** What {@link billRun} found: the requests, the summarizer's calls, and both together. */
export interface RunBill {
  /** Input tokens sent over all requests, how they are billed, and their cost in dollars. */
  requests: BilledTokens & { inputTokens: number; cost: number };
  /** The summarizer's calls: how many, their input tokens, how they are billed, and their cost in dollars. */
  summarizer: BilledTokens & { calls: number; inputTokens: number; cost: number };
  /** Both costs together, in dollars. */
  cost: number;
}

/**
 * Bills a run recorded outside {@link simulate} as `simulate` bills its own: each request, in order, reads
 * from the cache the prefix it shares with the request before (the same message objects; the calls are taken
 * to come within the cache's lifetime), and writes the rest; each call of a summarizer (every one made,
 * whether its result was used or dropped) is a request of its own, uncached unless its usage reported cache
 * figures.
 */
export function billRun(
  requests: readonly SentRequest[],
  summarizerCalls: readonly MeteredCall[],
  counter: TokenCounter,
  prices: PriceModel,
): RunBill {
  let previous: readonly Message[] = [];
  let requestsBilled = emptyBilled();
  let inputTokens = 0;
  for (const request of requests) {
    const call = bill(request.messages, previous, counter, prices, request.outputTokens);
    requestsBilled = addBilled(requestsBilled, call.billed);
    inputTokens += call.contextTokens;
    previous = request.messages;
  }
  const summarizerBilled = summarizerCalls
    .map((call) => billCompactionCall(call, [], false, counter, prices))
    .reduce(addBilled, emptyBilled());
  const requestsCost = costOf(requestsBilled, prices);
  const summarizerCost = costOf(summarizerBilled, prices);
  return {
    requests: { ...requestsBilled, inputTokens, cost: requestsCost },
    summarizer: {
      ...summarizerBilled,
      calls: summarizerCalls.length,
      inputTokens: summarizerCalls.reduce((sum, call) => sum + call.inputTokens, 0),
      cost: summarizerCost,
    },
    cost: requestsCost + summarizerCost,
  };
}

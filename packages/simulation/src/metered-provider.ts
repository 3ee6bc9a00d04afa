import type { GenerateRequest, Message, Provider, TokenCounter, Usage } from '@compaction/core';

/** One call made through a {@link MeteredProvider}: what it sent and the tokens it used. */
export interface MeteredCall {
  /** The request's messages, the very objects sent (a request that continues a conversation shares them). */
  messages: readonly Message[];
  inputTokens: number;
  outputTokens: number;
  /** The usage the provider reported, when it did (cache reads and writes among it, when reported). */
  reported?: Usage;
}

/** A provider that adds up the tokens of the calls made through it (a summarizer's calls, in simulations). */
export interface MeteredProvider extends Provider {
  /** The tokens used since the last call, with each call, and resets them. */
  takeUsage(): { inputTokens: number; outputTokens: number; calls: number; made: MeteredCall[] };
}

/**
 * Wraps a provider to meter `generate`: the usage the provider reports, or an estimate with `counter` when
 * it reports none.
 */
export function createMeteredProvider(provider: Provider, counter: TokenCounter): MeteredProvider {
  let made: MeteredCall[] = [];
  const generate = async (request: GenerateRequest) => {
    const result = await provider.generate(request);
    made.push({
      messages: request.messages,
      inputTokens: result.usage?.inputTokens ?? counter.estimate(request.messages),
      outputTokens: result.usage?.outputTokens ?? counter.estimator.countText(result.text),
      ...(result.usage === undefined ? {} : { reported: result.usage }),
    });
    return result;
  };
  const metered: MeteredProvider = {
    specificationVersion: 'v1',
    name: provider.name,
    modelId: provider.modelId,
    generate,
    modelLimits: (modelId) => provider.modelLimits(modelId),
    takeUsage() {
      const taken = made;
      made = [];
      return {
        inputTokens: taken.reduce((sum, call) => sum + call.inputTokens, 0),
        outputTokens: taken.reduce((sum, call) => sum + call.outputTokens, 0),
        calls: taken.length,
        made: taken,
      };
    },
  };
  if (provider.countTokens !== undefined) metered.countTokens = (request) => provider.countTokens!(request);
  if (provider.parseContextOverflow !== undefined) {
    metered.parseContextOverflow = (error) => provider.parseContextOverflow!(error);
  }
  return metered;
}

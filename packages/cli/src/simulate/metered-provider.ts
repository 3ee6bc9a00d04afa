import type { GenerateRequest, Provider, TokenCounter } from '@compaction/core';

/** A provider that adds up the tokens of the calls made through it (a summarizer's calls, in simulations). */
export interface MeteredProvider extends Provider {
  /** The tokens used since the last call, and resets them. */
  takeUsage(): { inputTokens: number; outputTokens: number; calls: number };
}

/**
 * Wraps a provider to meter `generate`: the usage the provider reports, or an estimate with `counter` when
 * it reports none.
 */
export function createMeteredProvider(provider: Provider, counter: TokenCounter): MeteredProvider {
  let usage = { inputTokens: 0, outputTokens: 0, calls: 0 };
  const generate = async (request: GenerateRequest) => {
    const result = await provider.generate(request);
    usage.calls++;
    usage.inputTokens += result.usage?.inputTokens ?? counter.estimate(request.messages);
    usage.outputTokens += result.usage?.outputTokens ?? counter.estimator.countText(result.text);
    return result;
  };
  const metered: MeteredProvider = {
    specificationVersion: 'v1',
    name: provider.name,
    modelId: provider.modelId,
    generate,
    modelLimits: (modelId) => provider.modelLimits(modelId),
    takeUsage() {
      const taken = usage;
      usage = { inputTokens: 0, outputTokens: 0, calls: 0 };
      return taken;
    },
  };
  if (provider.countTokens !== undefined) metered.countTokens = (request) => provider.countTokens!(request);
  if (provider.parseContextOverflow !== undefined) {
    metered.parseContextOverflow = (error) => provider.parseContextOverflow!(error);
  }
  return metered;
}

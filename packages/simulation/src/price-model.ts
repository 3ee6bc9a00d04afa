/**
 * What tokens cost, in dollars per million, with prompt caching. The defaults are Anthropic's list prices
 * for Claude Sonnet 4.5 with the 5-minute cache: $3 input, $15 output, $0.30 cache read, $3.75 cache write.
 */
export interface PriceModel {
  /** Uncached input tokens. */
  inputPerMillion: number;
  outputPerMillion: number;
  /** Input tokens read from the prompt cache. */
  cacheReadPerMillion: number;
  /** Input tokens written to the prompt cache. */
  cacheWritePerMillion: number;
  /**
   * Whether requests use prompt caching. With caching, each request's prefix that was sent before (the same
   * messages in the same order) is read from the cache and the rest is written to it; without, every input
   * token is billed at the input price.
   */
  caching: boolean;
  /**
   * Seconds a cache entry lives unread: a request made longer than this after the previous one reads
   * nothing from the cache and writes all of it again. Default 300 (Anthropic's 5-minute cache; 3600 for
   * its 1-hour cache, whose writes cost 2× the input price).
   */
  cacheLifetimeSeconds: number;
}

/** The default price model. */
export const defaultPriceModel: PriceModel = {
  inputPerMillion: 3,
  outputPerMillion: 15,
  cacheReadPerMillion: 0.3,
  cacheWritePerMillion: 3.75,
  caching: true,
  cacheLifetimeSeconds: 300,
};

/** Token counts of one or more requests, by how they are billed. */
export interface BilledTokens {
  /** Input tokens billed at the input price (no caching, or a request that does not cache). */
  uncachedInputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
}

/** The cost of billed tokens under a price model, in dollars. */
export function costOf(tokens: BilledTokens, prices: PriceModel): number {
  return (
    (tokens.uncachedInputTokens * prices.inputPerMillion +
      tokens.cacheReadTokens * prices.cacheReadPerMillion +
      tokens.cacheWriteTokens * prices.cacheWritePerMillion +
      tokens.outputTokens * prices.outputPerMillion) /
    1_000_000
  );
}

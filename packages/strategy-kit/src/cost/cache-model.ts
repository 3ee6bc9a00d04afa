/**
 * How a provider bills a prompt cache, relative to its price of an uncached input token: a token written to
 * the cache costs `write`, one read from it `read`; an entry not read for `lifetimeSeconds` is gone.
 */
export interface CacheModel {
  /** Price of a cache write over the input price (Anthropic 1.25 for 5 minutes, 2 for 1 hour; OpenAI 1). */
  write: number;
  /** Price of a cache read over the input price. */
  read: number;
  /** Seconds an unused entry lives; each read renews it. */
  lifetimeSeconds: number;
}

/** Anthropic's cache lifetimes: `5m` (the default) and `1h`. */
export type AnthropicCacheLifetime = '5m' | '1h';

/** Anthropic's multipliers, the same for every Claude model: reads 0.1, writes 1.25 (5 minutes) or 2 (1 hour). */
export function anthropicCacheModel(lifetime: AnthropicCacheLifetime = '5m'): CacheModel {
  return lifetime === '1h'
    ? { write: 2, read: 0.1, lifetimeSeconds: 3600 }
    : { write: 1.25, read: 0.1, lifetimeSeconds: 300 };
}

/**
 * OpenAI caches automatically: writes cost nothing extra and reads a share of the input price that depends
 * on the model family (0.1 for GPT-5, 0.25 for GPT-4.1, 0.5 for GPT-4o and the o-series, list prices when
 * this was written). Cached prefixes are kept 5 to 10 minutes of inactivity: 5 is assumed.
 */
export function openaiCacheModel(model = ''): CacheModel {
  const read = /^gpt-5/.test(model) ? 0.1 : /^gpt-4\.1/.test(model) ? 0.25 : 0.5;
  return { write: 1, read, lifetimeSeconds: 300 };
}

/** The cache model of a provider (`anthropic` or `openai`) and model; Anthropic's 5-minute cache otherwise. */
export function cacheModelFor(
  provider: string,
  model?: string,
  lifetime?: AnthropicCacheLifetime,
): CacheModel {
  if (provider === 'openai') return openaiCacheModel(model);
  return anthropicCacheModel(lifetime);
}

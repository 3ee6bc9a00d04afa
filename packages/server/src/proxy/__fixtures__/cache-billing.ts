/** Anthropic's multipliers of the base input price: a cache read costs a tenth, a cache write a quarter more. */
export const cacheReadMultiplier = 0.1;
export const cacheWriteMultiplier = 1.25;

/** Tokens of a JSON value, estimated as a provider's tokenizer roughly counts English and code: 4 characters each. */
const tokensOf = (value: unknown) => Math.ceil(JSON.stringify(value).length / 4);

/** What one request was billed, in input tokens and in base-price token equivalents. */
export interface BilledRequest {
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** `cacheRead × 0.1 + cacheWrite × 1.25`, in tokens at the base input price. */
  billed: number;
}

/**
 * Bills requests the way Anthropic's prompt cache does: the longest prefix (system prompt and tools first,
 * then whole messages) already sent in an earlier request is a cache read; everything after it is written to
 * the cache. The cache is kept for the whole run (a 1-hour cache on an agent that answers at once).
 */
export class CacheBilling {
  private readonly sent: string[][] = [];
  readonly requests: BilledRequest[] = [];

  bill(body: { system?: unknown; tools?: unknown; messages: unknown[] }): BilledRequest {
    const blocks = [
      JSON.stringify([body.system ?? null, body.tools ?? null]),
      ...body.messages.map((m) => JSON.stringify(m)),
    ];
    let longest = 0;
    for (const earlier of this.sent) {
      let shared = 0;
      while (shared < earlier.length && shared < blocks.length && earlier[shared] === blocks[shared])
        shared++;
      longest = Math.max(longest, shared);
    }
    this.sent.push(blocks);
    const tokens = blocks.map((block) => tokensOf(JSON.parse(block)));
    const cacheReadTokens = tokens.slice(0, longest).reduce((sum, count) => sum + count, 0);
    const cacheWriteTokens = tokens.slice(longest).reduce((sum, count) => sum + count, 0);
    const billed: BilledRequest = {
      inputTokens: cacheReadTokens + cacheWriteTokens,
      cacheReadTokens,
      cacheWriteTokens,
      billed: cacheReadTokens * cacheReadMultiplier + cacheWriteTokens * cacheWriteMultiplier,
    };
    this.requests.push(billed);
    return billed;
  }

  /** The run's total, in base-price input tokens. */
  total(): number {
    return this.requests.reduce((sum, request) => sum + request.billed, 0);
  }
}

import type { ContextOverflow } from '@compaction/core';

/** What the proxy learned of one upstream model's limit from the overflow errors it answered. */
export interface LearnedLimit {
  /** The upstream (`anthropic`, `openai`) and the model the requests named. */
  upstream: string;
  model: string;
  /**
   * Input tokens, as the provider counts them, that a request may hold: the stated maximum less the output
   * (the output the error counted, or the proxy's reservation), or below the count it refused.
   */
  inputTokens: number;
  /** The provider's count of a refused request over the proxy's count of it, tools included. */
  ratio: number;
  /** Overflows it was learned from. */
  overflows: number;
}

/** What the proxy had sent when the upstream refused it as too long. */
export interface RefusedRequest {
  /** The proxy's count of the request: its messages and what it carries besides them. */
  tokens: number;
  /** Output tokens the proxy keeps free for the answer, when the error did not count the request's own. */
  reservedOutputTokens: number;
}

/** Head-room under a learned limit, for the error of the estimate on what was not refused yet. */
const learnedMargin = 0.05;
/** Share of the refused count to stay under when the provider stated no maximum. */
const unstatedShrink = 0.9;
/** A ratio outside these bounds is taken for a misreading (another request's figures), not the estimate's error. */
const ratioBounds = { lowest: 0.5, highest: 4 } as const;
/** Upstream models remembered; beyond, the least recently refused is forgotten. */
const maximumEntries = 256;

/**
 * The limits the upstreams stated in their overflow errors, per upstream and model: the limit of every later
 * request to that model, so one overflow is the last. Without a stated maximum, the count that was refused
 * bounds the limit from above.
 */
export class UpstreamLimits {
  private readonly entries = new Map<string, LearnedLimit>();

  /** Learns from an overflow of a request to `upstream` and `model`; returns what is now known. */
  learn(upstream: string, model: string, overflow: ContextOverflow, refused: RefusedRequest): LearnedLimit {
    const key = keyOf(upstream, model);
    const previous = this.entries.get(key);
    const output = overflow.outputTokens;
    const counted = overflow.requestTokens === undefined ? undefined : overflow.requestTokens - (output ?? 0);
    const ratio =
      counted !== undefined && refused.tokens > 0
        ? Math.min(ratioBounds.highest, Math.max(ratioBounds.lowest, counted / refused.tokens))
        : (previous?.ratio ?? 1);
    let inputTokens: number;
    if (overflow.maximumTokens !== undefined) {
      // The stated maximum holds the output too: what the error counted, else what the proxy reserves.
      const reserved =
        output ?? Math.min(refused.reservedOutputTokens, Math.floor(overflow.maximumTokens / 4));
      inputTokens = overflow.maximumTokens - reserved;
    } else {
      const refusedCount = counted ?? refused.tokens * ratio;
      inputTokens = Math.floor(refusedCount * unstatedShrink);
      if (previous !== undefined) inputTokens = Math.min(inputTokens, previous.inputTokens);
    }
    const learned = {
      upstream,
      model,
      inputTokens: Math.max(1, inputTokens),
      ratio,
      overflows: (previous?.overflows ?? 0) + 1,
    };
    this.entries.delete(key);
    this.entries.set(key, learned);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= maximumEntries) break;
      this.entries.delete(oldest);
    }
    return learned;
  }

  /** The limit, in the proxy's own count, of a request to `upstream` and `model`; none when nothing was learned. */
  limitTokens(upstream: string, model: string): number | undefined {
    const learned = this.entries.get(keyOf(upstream, model));
    if (learned === undefined) return undefined;
    return Math.floor((learned.inputTokens / learned.ratio) * (1 - learnedMargin));
  }

  /** The lowest limit learned for any model of `upstream`, in the proxy's own count. */
  lowestLimitTokens(upstream: string): number | undefined {
    let lowest: number | undefined;
    for (const learned of this.entries.values()) {
      if (learned.upstream !== upstream) continue;
      const tokens = this.limitTokens(upstream, learned.model)!;
      if (lowest === undefined || tokens < lowest) lowest = tokens;
    }
    return lowest;
  }

  /** Everything learned, for `GET /compaction/status`. */
  list(): LearnedLimit[] {
    return [...this.entries.values()];
  }
}

const keyOf = (upstream: string, model: string) => `${upstream}\n${model}`;

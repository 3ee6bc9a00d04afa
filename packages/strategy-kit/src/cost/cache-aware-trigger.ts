import {
  type CompactionTriggerPolicy,
  InvalidOptionsError,
  type TriggerDecision,
  type TriggerQuery,
} from '@compaction/core';
import { anthropicCacheModel, type CacheModel } from './cache-model.js';

/** Options of {@link createCacheAwareTrigger}. */
export interface CacheAwareTriggerOptions {
  /** How the provider bills its prompt cache. Default Anthropic's 5-minute cache. */
  cache?: CacheModel;
  /**
   * What a compaction clears down to, as a fraction of the limit or a token count: compacting rarely and
   * deeply breaks the cache less often than a little every turn. Default 0.25 of the limit.
   */
  clearTo?: number;
  /**
   * Input price paid by the compaction itself per token it removes, over the input price: 0 for
   * deterministic strategies (the default), about 1 for a summarizer that reads what it replaces uncached.
   */
  compactionCost?: number;
  /** Milliseconds since the epoch, for the time since the previous request. Default `Date.now`. */
  now?: () => number;
  /**
   * Sessions remembered at most, a positive integer. Past it, the session whose last request is oldest is
   * forgotten: its next request is decided as a new session's first. Default 1000, as the Compactor's.
   */
  maximumSessions?: number;
}

/** The `cache-aware` trigger policy: a trigger policy that can also be told a session has ended. */
export interface CacheAwareTrigger extends CompactionTriggerPolicy {
  /** Forgets what the trigger remembers of a session; call it when a conversation ends. */
  forget(sessionId: string): void;
}

/** What the trigger remembers of a session's requests. */
interface RequestRecord {
  at: number;
  requests: number;
  /** Tokens the history grew by between requests, summed over the requests not compacted. */
  growth: number;
  growthSamples: number;
  tokens: number;
  /** What the last compaction reached: the next one is not expected to get lower. */
  reached?: number;
}

/**
 * A trigger that weighs what compacting now saves against the prompt cache it breaks. Compacting rewrites the
 * history: the kept part is written to the cache again (`write` × what is kept) and the compaction's own
 * model calls cost `compactionCost` × what is removed; it saves `read` × what is removed on every later
 * request. The remaining requests are taken to be as many as were made so far (a conversation is expected
 * to go on about as long as it has gone). While the cache is warm it waits until the history has grown by
 * the step that makes the cost per request lowest (for growth `g` per request and `k` tokens kept, the step
 * is √(2 · write · k · g / read)) and the saving covers the cost; once the time since the previous request
 * exceeds the cache lifetime, the cache is gone anyway and it compacts as soon as a request's growth can be
 * cleared. Over the budget's token trigger it always compacts. Every compaction clears to `clearTo`; when the
 * last one could not get that low, what it reached is what the next is expected to keep.
 * Remembers requests per session, for at most `maximumSessions` sessions (the least recently sent to is
 * forgotten first) or until `forget`: create one per Compactor.
 *
 * With the Compactor's `background` setting, it decides when a compaction is used, not when the summarizer
 * runs: a job starts at `prepareAt` whatever it decides, and its call is paid once started, used or dropped
 * (dropped only for reasons of its own: the history edited, the session closed, another compaction recorded),
 * so compacting now or later changes nothing of that cost and `compactionCost` stays what the strategy pays.
 * A compaction it asks for under the token trigger is not put off by background compaction: `prepare` waits.
 */
export function createCacheAwareTrigger(options: CacheAwareTriggerOptions = {}): CacheAwareTrigger {
  const cache = options.cache ?? anthropicCacheModel();
  const clearTo = options.clearTo ?? 0.25;
  const compactionCost = options.compactionCost ?? 0;
  const now = options.now ?? Date.now;
  const maximumSessions = options.maximumSessions ?? 1000;
  const issues = [];
  if (!(clearTo > 0)) issues.push({ path: 'clearTo', message: 'must be a positive number' });
  if (!(compactionCost >= 0)) issues.push({ path: 'compactionCost', message: 'must be 0 or more' });
  if (!(cache.read > 0 && cache.write >= 0 && cache.lifetimeSeconds > 0)) {
    issues.push({ path: 'cache', message: 'needs read > 0, write >= 0 and lifetimeSeconds > 0' });
  }
  if (!(Number.isInteger(maximumSessions) && maximumSessions >= 1)) {
    issues.push({ path: 'maximumSessions', message: 'must be a positive integer' });
  }
  if (issues.length > 0) throw new InvalidOptionsError({ subject: 'cache-aware trigger', issues });
  // In the order of their last request, oldest first (a Map iterates in insertion order): the first key is
  // the one to forget when a new session would exceed `maximumSessions`.
  const sessions = new Map<string, RequestRecord>();

  function decide(query: TriggerQuery): TriggerDecision {
    const kept = Math.min(Math.floor(clearTo <= 1 ? clearTo * query.limit : clearTo), query.trigger - 1);
    if (query.tokens > query.trigger) return { compact: true, target: kept };
    const record = sessions.get(query.sessionId);
    if (record === undefined) return { compact: false };
    // A strategy that could not get down to `kept` last time (what it must keep grew) will not this time
    // either: the saving is reckoned from what it reached, so it does not compact again for little.
    const expected = Math.max(kept, record.reached ?? 0);
    const removed = query.tokens - expected;
    if (removed <= 0) return { compact: false };
    const growth = Math.max(1, record.growth / Math.max(1, record.growthSamples));
    const cold = (now() - record.at) / 1000 > cache.lifetimeSeconds;
    if (cold) {
      // Nothing cached is lost: compacting costs only its own calls and saves rewriting what it removes.
      const worth = cache.write + cache.read * record.requests > compactionCost;
      return { compact: worth && removed >= growth, target: kept };
    }
    const step = Math.sqrt((2 * cache.write * expected * growth) / cache.read);
    const saving = cache.read * removed * record.requests;
    const cost = cache.write * expected + compactionCost * removed;
    return { compact: removed >= step && saving > cost, target: kept };
  }

  return {
    name: 'cache-aware',
    decide,
    sent({ sessionId, tokens, compacted }) {
      const record = sessions.get(sessionId);
      const grew = record !== undefined && !compacted ? Math.max(0, tokens - record.tokens) : undefined;
      // Deleted first so that setting it again moves the session to the end, the most recent.
      sessions.delete(sessionId);
      if (sessions.size >= maximumSessions) {
        const oldest = sessions.keys().next();
        if (oldest.done !== true) sessions.delete(oldest.value);
      }
      sessions.set(sessionId, {
        at: now(),
        requests: (record?.requests ?? 0) + 1,
        growth: (record?.growth ?? 0) + (grew ?? 0),
        growthSamples: (record?.growthSamples ?? 0) + (grew === undefined ? 0 : 1),
        tokens,
        ...(compacted
          ? { reached: tokens }
          : record?.reached === undefined
            ? {}
            : { reached: record.reached }),
      });
    },
    forget(sessionId) {
      sessions.delete(sessionId);
    },
  };
}

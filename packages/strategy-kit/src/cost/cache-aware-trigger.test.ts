import { InvalidOptionsError, type Message } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { createCacheAwareTrigger } from './cache-aware-trigger.js';
import { cacheAwareTriggerFromConfig } from './cache-aware-trigger-config.js';
import { anthropicCacheModel, cacheModelFor, openaiCacheModel } from './cache-model.js';

const messages: Message[] = [];
const budget = { limit: 20_000, trigger: 17_000, target: 12_000 };
const query = (tokens: number, sessionId = 'a') => ({ sessionId, messages, tokens, ...budget });

/** A trigger on a clock the test moves, having seen `requests` requests growing by `growth` tokens. */
function warmed(requests: number, growth: number, options: { compactionCost?: number } = {}) {
  let now = 0;
  const trigger = createCacheAwareTrigger({ now: () => now, ...options });
  for (let request = 0; request < requests; request++) {
    now += 10_000;
    trigger.sent?.({ sessionId: 'a', messages, tokens: 1000 + request * growth, compacted: false });
  }
  return {
    trigger,
    advance: (seconds: number) => {
      now += seconds * 1000;
    },
  };
}

describe('createCacheAwareTrigger', () => {
  it('over the token trigger always compacts, clearing to 0.25 of the limit', () => {
    const trigger = createCacheAwareTrigger();
    expect(trigger.decide(query(17_001))).toEqual({ compact: true, target: 5000 });
  });

  it('on a warm cache waits for a step worth the cache it breaks, then compacts in one large step', () => {
    // Growth 300 per request, 5,000 kept: the step is √(2 · 1.25 · 5000 · 300 / 0.1) ≈ 6,124 tokens.
    const { trigger, advance } = warmed(40, 300);
    advance(10);
    expect(trigger.decide(query(10_000)).compact).toBe(false);
    expect(trigger.decide(query(11_200))).toEqual({ compact: true, target: 5000 });
  });

  it('a young conversation is not expected to last long enough to repay the rewrite', () => {
    const { trigger, advance } = warmed(3, 300);
    advance(10);
    expect(trigger.decide(query(16_000)).compact).toBe(false);
  });

  it('a summarizer that pays for what it removes needs more requests ahead to be worth it', () => {
    const cheap = warmed(12, 300);
    const summarizing = warmed(12, 300, { compactionCost: 1 });
    cheap.advance(10);
    summarizing.advance(10);
    expect(cheap.trigger.decide(query(16_000)).compact).toBe(true);
    expect(summarizing.trigger.decide(query(16_000)).compact).toBe(false);
  });

  it('once the cache has gone cold it compacts as soon as a request’s growth can be cleared', () => {
    const { trigger, advance } = warmed(3, 300);
    advance(301);
    expect(trigger.decide(query(5200)).compact).toBe(false);
    expect(trigger.decide(query(5400))).toEqual({ compact: true, target: 5000 });
  });

  it('remembers each session apart, and checks its options', () => {
    const { trigger, advance } = warmed(40, 300);
    advance(10);
    expect(trigger.decide(query(11_200, 'b')).compact).toBe(false);
    expect(() => createCacheAwareTrigger({ clearTo: 0 })).toThrow(InvalidOptionsError);
    expect(() => createCacheAwareTrigger({ cache: { read: 0, write: 1, lifetimeSeconds: 300 } })).toThrow(
      /cache.*read > 0/s,
    );
  });
});

describe('cache models', () => {
  it('Anthropic: 5 minutes at 1.25, 1 hour at 2, reads at 0.1; OpenAI: no write surcharge, reads by family', () => {
    expect(anthropicCacheModel()).toEqual({ write: 1.25, read: 0.1, lifetimeSeconds: 300 });
    expect(anthropicCacheModel('1h')).toEqual({ write: 2, read: 0.1, lifetimeSeconds: 3600 });
    expect(openaiCacheModel('gpt-5-mini').read).toBe(0.1);
    expect(openaiCacheModel('gpt-4.1').read).toBe(0.25);
    expect(openaiCacheModel('gpt-4o').read).toBe(0.5);
    expect(cacheModelFor('openai', 'gpt-5')).toEqual({ write: 1, read: 0.1, lifetimeSeconds: 300 });
    expect(cacheModelFor('anthropic', 'claude-sonnet-4-5', '1h').write).toBe(2);
  });
});

describe('cacheAwareTriggerFromConfig', () => {
  it('builds the trigger from plain JSON, with the named cache, on the given clock', () => {
    const decisionLater = (cache: 'anthropic-1h' | 'anthropic-5m') => {
      let now = 0;
      const trigger = cacheAwareTriggerFromConfig({ cache, clearTo: 0.2 }, () => now);
      trigger.sent?.({ sessionId: 'a', messages, tokens: 1000, compacted: false });
      now += 10_000;
      trigger.sent?.({ sessionId: 'a', messages, tokens: 1300, compacted: false });
      // Half an hour later: the 1-hour cache is still warm, the 5-minute one is gone.
      now += 1_800_000;
      return trigger.decide(query(4400));
    };
    expect(decisionLater('anthropic-1h')).toEqual({ compact: false, target: 4000 });
    expect(decisionLater('anthropic-5m')).toEqual({ compact: true, target: 4000 });
    expect(cacheAwareTriggerFromConfig({}).decide(query(17_001))).toEqual({ compact: true, target: 5000 });
  });

  it('rejects options outside its schema', () => {
    expect(() => cacheAwareTriggerFromConfig({ cache: 'azure' })).toThrow(InvalidOptionsError);
    expect(() => cacheAwareTriggerFromConfig({ clearTo: 0.2, every: 3 })).toThrow(/every/);
  });
});

describe('createCacheAwareTrigger after a compaction that stopped short', () => {
  it('reckons the next saving from what the last compaction reached, not from clearTo', () => {
    const { trigger, advance } = warmed(40, 300);
    advance(10);
    expect(trigger.decide(query(11_200)).compact).toBe(true);
    // The compaction only got down to 9,000 tokens: from there the step is about 8,200 tokens, beyond the
    // token trigger, so only the trigger makes it compact again.
    trigger.sent?.({ sessionId: 'a', messages, tokens: 9000, compacted: true });
    advance(10);
    expect(trigger.decide(query(11_200)).compact).toBe(false);
    expect(trigger.decide(query(16_900)).compact).toBe(false);
    expect(trigger.decide(query(17_001))).toEqual({ compact: true, target: 5000 });
  });
});

describe('createCacheAwareTrigger’s memory of sessions', () => {
  /** A trigger on a moving clock, and a way to send a session 40 requests growing by 300 tokens each. */
  function remembering(options: { maximumSessions?: number } = {}) {
    let now = 0;
    const trigger = createCacheAwareTrigger({ now: () => now, ...options });
    const warm = (sessionId: string) => {
      for (let request = 0; request < 40; request++) {
        now += 10_000;
        trigger.sent?.({ sessionId, messages, tokens: 1000 + request * 300, compacted: false });
      }
    };
    // A warm session compacts at 11,200 tokens (see above); one the trigger does not know waits.
    const remembers = (sessionId: string) => trigger.decide(query(11_200, sessionId)).compact;
    return { trigger, warm, remembers };
  }

  it('forgets the session sent to least recently once more than maximumSessions have been seen', () => {
    const { warm, remembers } = remembering({ maximumSessions: 2 });
    warm('a');
    warm('b');
    warm('a');
    warm('c');
    expect(remembers('b')).toBe(false);
    expect(remembers('a')).toBe(true);
    expect(remembers('c')).toBe(true);
  });

  it('remembers 1000 sessions by default, no more', () => {
    const { trigger, warm, remembers } = remembering();
    warm('first');
    for (let session = 1; session < 1000; session++) {
      trigger.sent?.({ sessionId: `other-${session}`, messages, tokens: 1000, compacted: false });
    }
    expect(remembers('first')).toBe(true);
    trigger.sent?.({ sessionId: 'one-more', messages, tokens: 1000, compacted: false });
    expect(remembers('first')).toBe(false);
  });

  it('forgets a session when told, leaving the others', () => {
    const { trigger, warm, remembers } = remembering();
    warm('a');
    warm('b');
    trigger.forget('a');
    expect(remembers('a')).toBe(false);
    expect(remembers('b')).toBe(true);
  });

  it('takes maximumSessions from config, and rejects one that is not a positive integer', () => {
    let now = 0;
    const trigger = cacheAwareTriggerFromConfig({ maximumSessions: 1 }, () => now);
    for (const sessionId of ['a', 'b']) {
      trigger.sent?.({ sessionId, messages, tokens: 1000, compacted: false });
      now += 10_000;
      trigger.sent?.({ sessionId, messages, tokens: 1300, compacted: false });
    }
    // Cold after ten minutes: a remembered session compacts once a request's growth can be cleared.
    now += 600_000;
    expect(trigger.decide(query(5400, 'a')).compact).toBe(false);
    expect(trigger.decide(query(5400, 'b')).compact).toBe(true);
    for (const maximumSessions of [0, 1.5]) {
      expect(() => createCacheAwareTrigger({ maximumSessions })).toThrow(
        /maximumSessions.*positive integer/s,
      );
      expect(() => cacheAwareTriggerFromConfig({ maximumSessions })).toThrow(InvalidOptionsError);
    }
  });
});

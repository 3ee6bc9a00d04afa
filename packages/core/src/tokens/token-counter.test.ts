import { describe, expect, it } from 'vitest';
import { conversation, user } from '../__fixtures__/messages.js';
import type { Message } from '../messages/message.js';
import { createMessageEstimator } from './message-estimator.js';
import { createTokenCounter } from './token-counter.js';

function countingEstimator() {
  const seen: Message[] = [];
  const base = createMessageEstimator({ name: 'test', countText: (text) => text.length });
  return {
    seen,
    estimator: {
      ...base,
      countMessage(message: Message) {
        seen.push(message);
        return base.countMessage(message);
      },
    },
  };
}

describe('TokenCounter', () => {
  it('memoizes per message object', () => {
    const { seen, estimator } = countingEstimator();
    const counter = createTokenCounter(estimator);
    const messages = conversation(5);
    const first = counter.count(messages);
    expect(seen).toHaveLength(messages.length);
    expect(counter.count(messages)).toBe(first);
    expect(seen).toHaveLength(messages.length);
    counter.count([...messages, user('one more')]);
    expect(seen).toHaveLength(messages.length + 1);
  });

  it('anchors on reported usage for lists that extend what was sent', () => {
    const counter = createTokenCounter(
      createMessageEstimator({ name: 'test', countText: (text) => text.length }),
    );
    const sent = conversation(3);
    counter.recordUsage({ messages: sent, inputTokens: 12_345 });
    expect(counter.count(sent)).toBe(12_345);
    const next = user('next question');
    expect(counter.count([...sent, next])).toBe(12_345 + counter.countMessage(next));
    // A list that diverges from what was sent is estimated in full.
    const diverged = [...sent.slice(0, 2), user('different')];
    expect(counter.count(diverged)).toBe(counter.estimate(diverged));
    expect(counter.estimate(sent)).not.toBe(12_345);
    counter.clearUsage();
    expect(counter.count(sent)).toBe(counter.estimate(sent));
  });

  it('keeps the usage of each conversation it serves, the latest of each', () => {
    const counter = createTokenCounter(
      createMessageEstimator({ name: 'test', countText: (text) => text.length }),
    );
    const first = conversation(2);
    const second = conversation(2);
    counter.recordUsage({ messages: first, inputTokens: 1_000 });
    counter.recordUsage({ messages: second, inputTokens: 2_000 });
    const next = user('next');
    expect(counter.count([...first, next])).toBe(1_000 + counter.countMessage(next));
    expect(counter.count(second)).toBe(2_000);
    // A later request of the first conversation replaces its earlier usage.
    const longer = [...first, next];
    counter.recordUsage({ messages: longer, inputTokens: 1_500 });
    expect(counter.count(first)).toBe(counter.estimate(first));
    expect(counter.count(longer)).toBe(1_500);
    expect(counter.count(second)).toBe(2_000);
    // After a compaction the history diverges but keeps its first two messages: its usage replaces the old one.
    const compacted = [longer[0]!, longer[1]!, user('summary of the rest'), next];
    counter.recordUsage({ messages: compacted, inputTokens: 600 });
    expect(counter.count(longer)).toBe(counter.estimate(longer));
    expect(counter.count(compacted)).toBe(600);
    expect(counter.count(second)).toBe(2_000);
    // The least recently recorded conversation is forgotten past sixteen.
    for (let index = 0; index < 16; index++) {
      counter.recordUsage({ messages: conversation(1), inputTokens: index });
    }
    expect(counter.count(second)).toBe(counter.estimate(second));
  });

  it('ignores nonsensical usage', () => {
    const counter = createTokenCounter();
    const sent = conversation(1);
    counter.recordUsage({ messages: sent, inputTokens: Number.NaN });
    expect(counter.count(sent)).toBe(counter.estimate(sent));
  });
});

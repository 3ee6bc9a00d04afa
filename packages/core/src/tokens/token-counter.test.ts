import { describe, expect, it } from 'vitest';
import { conversation, user } from '../__fixtures__/messages.js';
import type { Message } from '../messages/message.js';
import { createMessageEstimator } from './message-estimator.js';
import { TokenCounter } from './token-counter.js';

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
    const counter = new TokenCounter(estimator);
    const messages = conversation(5);
    const first = counter.count(messages);
    expect(seen).toHaveLength(messages.length);
    expect(counter.count(messages)).toBe(first);
    expect(seen).toHaveLength(messages.length);
    counter.count([...messages, user('one more')]);
    expect(seen).toHaveLength(messages.length + 1);
  });

  it('anchors on reported usage for lists that extend what was sent', () => {
    const counter = new TokenCounter(
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

  it('ignores nonsensical usage', () => {
    const counter = new TokenCounter();
    const sent = conversation(1);
    counter.recordUsage({ messages: sent, inputTokens: Number.NaN });
    expect(counter.count(sent)).toBe(counter.estimate(sent));
  });
});

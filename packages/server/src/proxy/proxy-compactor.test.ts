import {
  type CompactionStrategy,
  type CompactorEvents,
  createCompactor,
  type Message,
} from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { backgroundStopper } from './proxy-compactor.js';

// When the proxy closes, the background compactions of its conversations stop: a summary still being made
// would only cost a model call for requests that will not come.

const text = (role: 'user' | 'assistant', value: string): Message => ({
  role,
  content: [{ type: 'text', text: value }],
});

/** A strategy that never finishes by itself: it ends when its compaction is aborted. */
const waitingStrategy: CompactionStrategy = {
  specificationVersion: 'v1',
  name: 'waiting',
  compact: ({ abortSignal }) =>
    new Promise((_resolve, reject) => {
      abortSignal?.addEventListener('abort', () => reject(abortSignal.reason), { once: true });
    }),
};

describe('backgroundStopper', () => {
  it('stops every background compaction still running or ready, once', async () => {
    const compactor = createCompactor({
      strategy: waitingStrategy,
      budget: { contextWindow: 2000, reservedOutputTokens: 0, safetyMargin: 0, trigger: 0.85, target: 0.45 },
      background: { prepareAt: 0.6 },
    });
    const events: CompactorEvents['background'][] = [];
    compactor.on('background', (event) => events.push(event));
    const stop = backgroundStopper(compactor);
    const history = (label: string) => [
      ...Array.from({ length: 12 }, (_, index) => [
        // Sized to sit between prepareAt (1200 tokens) and the trigger (1700), checked below.
        text('user', `${label} ${index}: ${'word '.repeat(48)}`),
        text('assistant', `${'detail '.repeat(48)}`),
      ]).flat(),
      text('user', `${label}: go on.`),
    ];
    for (const conversation of ['proxy:first', 'proxy:second']) {
      const tokens = compactor.counter.count(history(conversation));
      expect(tokens).toBeGreaterThan(2000 * 0.6);
      expect(tokens).toBeLessThan(2000 * 0.85);
      await compactor.prepare(history(conversation), { sessionId: conversation });
    }
    expect(events.map((event) => event.status)).toEqual(['started', 'started']);
    stop();
    expect(events.slice(2)).toEqual([
      { status: 'discarded', sessionId: 'proxy:first', reason: 'session-closed' },
      { status: 'discarded', sessionId: 'proxy:second', reason: 'session-closed' },
    ]);
    stop();
    expect(events).toHaveLength(4);
  });
});

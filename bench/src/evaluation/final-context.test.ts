import { createCompactor, createTokenCounter, type Message } from '@compaction/core';
import { simulate } from '@compaction/simulation';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { describe, expect, it } from 'vitest';
import { codingSession } from './__fixtures__/messages.js';
import { finalContext, recordOutputs } from './final-context.js';

/** The context an agent loop ends with, replayed directly with a Compactor (what `simulate` does). */
async function replay(messages: readonly Message[], strategy: ReturnType<typeof createSlidingWindow>) {
  const compactor = createCompactor({ strategy, budget: { contextWindow: 8000 } });
  let history: Message[] = [];
  for (const message of messages) {
    if (message.role === 'assistant' && history.length > 0) {
      try {
        history = (await compactor.prepare(history)).messages;
      } catch {
        // Over the limit and not compactable: sent as is, like the simulation does.
      }
    }
    history = [...history, message];
  }
  return history;
}

describe('finalContext', () => {
  for (const [name, create] of [
    ['sliding-window', () => createSlidingWindow()],
    ['tool-result-truncation', () => createToolResultTruncation()],
  ] as const) {
    it(`rebuilds the context a replay with ${name} ends with`, async () => {
      const messages = codingSession(30, 1200);
      const recording = recordOutputs(create());
      const counter = createTokenCounter();
      const result = await simulate(messages, {
        strategy: recording.strategy,
        budget: { contextWindow: 8000 },
      });
      expect(result.totals.compactions).toBeGreaterThan(1);
      const context = finalContext(messages, result, recording.outputs, counter);
      expect(context).toEqual(await replay(messages, create()));
      expect(counter.count(context)).toBeLessThan(counter.count(messages));
    });
  }

  it('is the whole history when nothing was compacted', async () => {
    const messages = codingSession(3, 100);
    const recording = recordOutputs(createSlidingWindow());
    const result = await simulate(messages, {
      strategy: recording.strategy,
      budget: { contextWindow: 200_000 },
    });
    expect(finalContext(messages, result, recording.outputs, createTokenCounter())).toEqual(messages);
  });
});

import { OverflowRetriesExhaustedError } from '@compaction/agent-loop';
import { ContextOverflowError, createCompactor, type GenerateResult, type Message } from '@compaction/core';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { createMockProvider } from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import { ChatSession } from './chat-session.js';

const refusal = (requestTokens?: number) =>
  new ContextOverflowError({
    provider: 'mock',
    message: 'prompt is too long',
    ...(requestTokens === undefined ? {} : { requestTokens }),
  });

/** A session whose history is long turns of chat, on a window that fits them until the provider says not. */
async function longSession(responses: Array<string | GenerateResult | Error>) {
  const provider = createMockProvider({ responses });
  const compactor = createCompactor({
    strategy: createSlidingWindow(),
    budget: { contextWindow: 50_000, reservedOutputTokens: 0, trigger: false },
  });
  const session = new ChatSession({ provider, compactor, system: 'You are terse.' });
  const filler = 'word '.repeat(1000);
  const history: Message[] = Array.from(
    { length: 20 },
    (_, index): Message =>
      index % 2 === 0
        ? { role: 'user', content: [{ type: 'text', text: `${index} ${filler}` }] }
        : { role: 'assistant', content: [{ type: 'text', text: `${index} ${filler}` }] },
  );
  session.messages = [...session.messages, ...history];
  return { session, provider, compactor };
}

describe('ChatSession', () => {
  it('retries after refusals as the one overflow policy says, and records usage against what was sent', async () => {
    const { session, provider, compactor } = await longSession([
      refusal(),
      refusal(),
      { text: 'short answer', finishReason: 'stop', usage: { inputTokens: 900, outputTokens: 3 } },
    ]);
    const before = session.messages.length;
    const turn = await session.send('And now?');
    expect(turn.answer).toBe('short answer');
    expect(provider.requests).toHaveLength(3);
    expect(provider.requests[2]!.messages.length).toBeLessThan(provider.requests[1]!.messages.length);
    expect(turn.compaction?.event?.trigger).toBe('overflow');
    expect(session.compactions).toBe(2);
    // The history is what the answered request carried, then the answer.
    expect(session.messages.slice(0, -1)).toEqual(provider.requests[2]!.messages);
    expect(session.messages.length).toBeLessThan(before + 2);
    expect(compactor.counter.anchoredLength(provider.requests[2]!.messages)).toBe(
      provider.requests[2]!.messages.length,
    );
  });

  it('cuts by the figures the refusal states', async () => {
    const unstated = await longSession([refusal(), 'ok']);
    const counted = unstated.compactor.counter.count(unstated.session.messages);
    // Over the window, and three times the session's own count of the request: a deeper cut than no figure.
    const stated = await longSession([refusal(Math.max(60_000, counted * 3)), 'ok']);
    await unstated.session.send('Go on.');
    await stated.session.send('Go on.');
    expect(stated.provider.requests[1]!.messages.length).toBeLessThan(
      unstated.provider.requests[1]!.messages.length,
    );
  });

  it('throws a typed error listing the refused requests when every retry is refused', async () => {
    const { session, provider } = await longSession([refusal(), refusal(), refusal(), 'never']);
    const failure = await session.send('Once more.').catch((error: unknown) => error);
    expect(OverflowRetriesExhaustedError.isInstance(failure)).toBe(true);
    expect((failure as OverflowRetriesExhaustedError).attempts).toHaveLength(provider.requests.length);
  });
});

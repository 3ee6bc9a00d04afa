import { createTokenCounter, type Message, verifyCompaction } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { codingSession } from './__fixtures__/messages.js';
import { createToolResultClearing } from './tool-result-clearing.js';

const placeholder = '[cleared]';
const clearing = createToolResultClearing({ name: 'clearing', keepRecent: 3, placeholder });
const counter = createTokenCounter();
const run = (messages: readonly Message[], round = 1) =>
  clearing.compact({ messages, counter, budget: { limit: 1e9, target: 1 }, trigger: 'auto', round });
const outputs = (messages: readonly Message[]) =>
  messages.flatMap((message) => (message.role === 'tool' ? message.content : [])).map((part) => part.output);

describe('createToolResultClearing', () => {
  it('clears every tool result but the newest ones and keeps the calls', async () => {
    const messages = codingSession(6);
    const { messages: cleared } = await run(messages);
    expect(outputs(cleared).slice(0, 3)).toEqual([placeholder, placeholder, placeholder]);
    expect(outputs(cleared).slice(3)).toEqual(outputs(messages).slice(3));
    expect(cleared.filter((message) => message.role === 'assistant')).toEqual(
      messages.filter((message) => message.role === 'assistant'),
    );
    expect(verifyCompaction({ before: messages, after: cleared, counter })).toEqual([]);
  });

  it('returns unchanged messages as the same objects and marks changed ones', async () => {
    const messages = codingSession(5);
    const { messages: cleared } = await run(messages);
    for (const [index, message] of cleared.entries()) {
      const changed = message !== messages[index];
      expect(changed).toBe(message.metadata?.compaction !== undefined);
    }
    expect(cleared[3]!.metadata?.compaction).toMatchObject({
      kind: 'modified',
      round: 1,
      strategy: 'clearing',
    });
  });

  it('leaves results it cleared before as the same objects, so the prompt cache keeps them', async () => {
    const { messages: cleared } = await run(codingSession(5));
    const next = [...cleared, ...codingSession(6).slice(12, 14)];
    const { messages: again } = await run(next, 2);
    // Results 1 and 2 (messages 3 and 5) were cleared in round 1; result 3 (message 7) is cleared now.
    expect(again[3]).toBe(next[3]);
    expect(again[5]).toBe(next[5]);
    expect(again[7]).not.toBe(next[7]);
    expect(outputs(again)).toEqual([placeholder, placeholder, placeholder, ...outputs(next).slice(3)]);
  });

  it('changes nothing when there are no more results than it keeps', async () => {
    const messages = codingSession(3);
    const { messages: result } = await run(messages);
    for (const [index, message] of result.entries()) expect(message).toBe(messages[index]);
  });
});

import {
  compactionMetadataOf,
  createTokenCounter,
  type Message,
  textOf,
  verifyCompaction,
} from '@compaction/core';
import { createMockProvider } from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import { assistant, codingSession, toolTurn, user } from './__fixtures__/messages.js';
import { createSummarizingCondenser } from './summarizing-condenser.js';

const counter = createTokenCounter();
const compact = (strategy: ReturnType<typeof createSummarizingCondenser>, messages: readonly Message[]) =>
  strategy.compact({ messages, counter, budget: { limit: 1e9, target: 1 }, trigger: 'auto', round: 1 });

describe('createSummarizingCondenser', () => {
  it('leaves a history of at most maxEvents events alone', async () => {
    const provider = createMockProvider({ responses: ['summary'] });
    const strategy = createSummarizingCondenser({ name: 'condenser', provider, maxEvents: 20, keepFirst: 4 });
    const messages = codingSession(8); // 20 messages
    const { messages: result } = await compact(strategy, messages);
    for (const [index, message] of result.entries()) expect(message).toBe(messages[index]);
    expect(provider.requests).toHaveLength(0);
  });

  it('keeps the first events, one summary and the newest half, on turn boundaries', async () => {
    const provider = createMockProvider({ responses: ['SUMMARY TEXT'] });
    const strategy = createSummarizingCondenser({ name: 'condenser', provider, maxEvents: 20, keepFirst: 4 });
    const messages = codingSession(12); // 28 messages
    const { messages: result } = await compact(strategy, messages);
    // Head: system, task and the first tool turn (4 messages); tail: 20 / 2 - 4 - 1 = 5 events, moved to
    // the next turn start so no call loses its result.
    expect(result.slice(0, 4)).toEqual(messages.slice(0, 4));
    expect(compactionMetadataOf(result[4]!)?.kind === 'summary').toBe(true);
    expect(textOf(result[4]!)).toBe('SUMMARY TEXT');
    expect(result.slice(5)).toEqual(messages.slice(-4));
    expect(verifyCompaction({ before: messages, after: result, counter })).toEqual([]);
    expect(provider.requests).toHaveLength(1);
    expect(textOf(provider.requests[0]!.messages[0]!)).toContain('tests/test_4.py');
  });

  it('keeps the newest user request when it falls in the summarized span', async () => {
    const provider = createMockProvider({ responses: ['summary'] });
    const strategy = createSummarizingCondenser({ name: 'condenser', provider, maxEvents: 12, keepFirst: 2 });
    const messages: Message[] = [user('task'), assistant('plan'), user('newest request')];
    for (let index = 0; index < 6; index++)
      messages.push(...toolTurn(`${index}`, 'bash', { command: 'ls' }, 'ok'));
    const { messages: result } = await compact(strategy, messages);
    expect(
      result.map((message) => (compactionMetadataOf(message)?.kind === 'summary' ? 'summary' : message)),
    ).toContain(messages[2]);
    expect(verifyCompaction({ before: messages, after: result, counter })).toEqual([]);
  });

  it('without maxEvents, cuts whatever history it is given to about half', async () => {
    const provider = createMockProvider({ responses: ['summary'] });
    const strategy = createSummarizingCondenser({ name: 'condenser', provider, keepFirst: 4 });
    const messages = codingSession(8); // 20 messages
    const { messages: result } = await compact(strategy, messages);
    expect(result.length).toBeLessThanOrEqual(10);
    expect(verifyCompaction({ before: messages, after: result, counter })).toEqual([]);
  });
});

import {
  BudgetUnreachableError,
  compactionMetadataOf,
  createStrategyRegistry,
  createTokenCounter,
  InvalidMessagesError,
  InvalidOptionsError,
  latestUserMessageIndex,
  type Message,
  type StrategyOptionsByName,
  textOf,
  verifyCompaction,
  withCompactionMetadata,
} from '@compaction/core';
import {
  assistantMessage,
  codingConversation,
  systemMessage,
  toolTurn,
  userMessage,
} from '@compaction/testing';

import { describe, expect, expectTypeOf, it } from 'vitest';
import pruningDefinition, { createPruning, markerText, type PruningOptions } from './index.js';

async function run(messages: Message[], budget: { limit: number; target: number }, options = {}) {
  const counter = createTokenCounter();
  const output = await createPruning(options).compact({
    messages,
    counter,
    budget,
    trigger: 'auto',
    round: 2,
  });
  const violations = verifyCompaction({
    before: messages,
    after: output.messages,
    counter,
    limit: budget.limit,
  });
  return { output, counter, violations, tokens: counter.estimate(output.messages) };
}

describe('createPruning', () => {
  const messages = codingConversation(20);
  const total = createTokenCounter().estimate(messages);

  it('drops the oldest turns until the target is met and keeps the head and the newest request', async () => {
    const target = Math.floor(total / 2);
    const { output, violations, tokens } = await run(messages, { limit: total, target });
    expect(violations).toEqual([]);
    expect(tokens).toBeLessThanOrEqual(target);
    expect(output.messages[0]).toBe(messages[0]);
    expect(output.messages[1]).toBe(messages[1]);
    expect(output.messages.at(-1)).toBe(messages.at(-1));
    // The kept turns are the newest ones, as the same objects (the marker stands among them, after the first).
    const kept = output.messages
      .slice(2, -1)
      .filter((message) => compactionMetadataOf(message)?.kind !== 'marker');
    expect(kept).toEqual(messages.slice(messages.length - 1 - kept.length, -1));
    const start = messages.length - 1 - kept.length;
    kept.forEach((message, index) => {
      expect(message).toBe(messages[start + index]);
    });
  });

  it('leaves one marker with the number of removed messages, marked as a compaction product', async () => {
    const { output } = await run(messages, { limit: total, target: Math.floor(total / 2) });
    // After the first kept model turn: right after the task, Anthropic would merge it into the task's message.
    const markers = output.messages.filter((message) => compactionMetadataOf(message)?.kind === 'marker');
    expect(markers).toHaveLength(1);
    const marker = markers[0]!;
    expect(output.messages.indexOf(marker)).toBeGreaterThan(2);
    const removed = output.details?.removedMessages as number;
    expect(removed).toBeGreaterThan(0);
    expect(removed).toBe(messages.length + 1 - output.messages.length);
    expect(textOf(marker)).toBe(markerText(removed));
    // A user message, so it never merges into a model turn ahead of its reasoning; never a user request.
    expect(marker.role).toBe('user');
    expect(latestUserMessageIndex([marker])).toBe(-1);
    expect(compactionMetadataOf(marker)).toEqual({
      kind: 'marker',
      round: 2,
      strategy: 'pruning',
      removedMessages: removed,
    });
  });

  it('leaves no marker when told not to', async () => {
    const { output } = await run(
      messages,
      { limit: total, target: Math.floor(total / 2) },
      { marker: false },
    );
    expect(output.messages.every((message) => compactionMetadataOf(message) === undefined)).toBe(true);
  });

  it('returns the history unchanged when it already fits', async () => {
    const { output } = await run(messages, { limit: total, target: total });
    expect(output.messages).toEqual(messages);
    output.messages.forEach((message, index) => {
      expect(message).toBe(messages[index]);
    });
  });

  it('keeps the newest turns over the target, and gives them up only for the limit', async () => {
    const counter = createTokenCounter();
    const lastFive = counter.estimate(messages.slice(-6, -1));
    const head = counter.estimate([messages[0]!, messages[1]!, messages.at(-1)!]);
    const target = head + 10;
    const overTarget = await run(messages, { limit: total, target }, { minRecentTurns: 5 });
    expect(overTarget.violations).toEqual([]);
    expect(overTarget.tokens).toBeGreaterThanOrEqual(head + lastFive);
    expect(overTarget.output.messages.slice(-6)).toEqual(messages.slice(-6));
    const strict = await run(messages, { limit: head + lastFive, target }, { minRecentTurns: 5 });
    expect(strict.violations).toEqual([]);
    expect(strict.tokens).toBeLessThanOrEqual(head + lastFive);
  });

  it('keeps pinned messages wherever they stand', async () => {
    const pinned = withCompactionMetadata(assistantMessage('Decision: keep the LRU cache size at 128.'), {
      pinned: true,
    });
    const withPin = [...messages.slice(0, 6), pinned, ...messages.slice(6)];
    const { output, violations } = await run(withPin, { limit: total, target: Math.floor(total / 3) });
    expect(violations).toEqual([]);
    expect(output.messages).toContain(pinned);
  });

  it('keeps the whole opening, even with the deprecated keepOriginalTask: false', async () => {
    const history = [
      systemMessage('agent'),
      userMessage('<environment_context>cwd: /work</environment_context>'),
      userMessage('first task'),
      ...toolTurn('a', 800),
      userMessage('second request'),
      ...toolTurn('b', 800),
      ...toolTurn('c', 800),
      userMessage('latest request'),
    ];
    const size = createTokenCounter().estimate(history);
    const { output, violations } = await run(
      history,
      { limit: size, target: Math.floor(size * 0.8) },
      { keepOriginalTask: false, minRecentTurns: 0 },
    );
    expect(violations).toEqual([]);
    expect(output.messages.slice(0, 3).every((message, index) => message === history[index])).toBe(true);
  });

  it('throws BudgetUnreachableError with the target and the best when the protected messages are over it', async () => {
    const counter = createTokenCounter();
    const history = [
      systemMessage('x'.repeat(4000)),
      userMessage('task'),
      ...toolTurn('a', 100),
      userMessage('now'),
    ];
    const protectedTokens = counter.estimate([history[0]!, history[1]!, history[4]!]);
    const error = await createPruning()
      .compact({
        messages: history,
        counter,
        budget: { limit: 100, target: 50 },
        trigger: 'overflow',
        round: 1,
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BudgetUnreachableError);
    expect(error).toMatchObject({ target: 50, limit: 100, best: protectedTokens });
    expect((error as Error).message).toMatch(/^Cannot reach the target of 50 tokens: the best is [\d,]+/);
  });

  describe('a turn too large to drop without emptying the history', () => {
    // An agent run with one enormous tool result among ordinary ones.
    const giant = [
      systemMessage('You are a coding agent.'),
      userMessage('Find why the build is slow.'),
      ...toolTurn('a', 2_000),
      ...toolTurn('b', 2_000),
      ...toolTurn('huge', 800_000),
      ...toolTurn('c', 2_000),
      ...toolTurn('d', 2_000),
      userMessage('What did you find?'),
    ];
    const giantTotal = createTokenCounter().estimate(giant);

    it('keeps an old huge turn shortened to fill the target instead of dropping it', async () => {
      const target = Math.floor(giantTotal * 0.25);
      const { output, violations, tokens } = await run(
        giant,
        { limit: giantTotal, target },
        { minRecentTurns: 2 },
      );
      expect(violations).toEqual([]);
      expect(tokens).toBeLessThanOrEqual(target);
      expect(tokens).toBeGreaterThanOrEqual(target * 0.95);
      const result = output.messages.find(
        (message) => message.role === 'tool' && message.content[0]!.toolCallId === 'huge',
      ) as Extract<Message, { role: 'tool' }>;
      expect(compactionMetadataOf(result)).toEqual({ kind: 'modified', round: 2, strategy: 'pruning' });
      const text = result.content[0]!.output as string;
      expect(text.startsWith('huge:')).toBe(true);
      expect(text).toMatch(/characters omitted/);
      // The call stays the same object; the newer turns stay whole.
      expect(output.messages).toContain(giant[6]);
      expect(output.messages.slice(-5)).toEqual(giant.slice(-5));
      expect(output.details).toMatchObject({ shortenedTurns: 1 });
    });

    it('shortens a huge recent turn when the limit forces the recent turns to give way', async () => {
      const target = Math.floor(giantTotal * 0.1);
      const { output, violations, tokens } = await run(giant, { limit: target, target });
      expect(violations).toEqual([]);
      expect(tokens).toBeLessThanOrEqual(target);
      expect(tokens).toBeGreaterThanOrEqual(target * 0.95);
      expect(output.messages).toContain(giant[6]);
      expect(output.messages.slice(-5)).toEqual(giant.slice(-5));
    });

    it('drops a huge turn whole when the room it would leave is within the slack', async () => {
      const withoutHuge = giantTotal - createTokenCounter().estimate(giant.slice(6, 8));
      // Dropping the huge turn (and the two before it) lands just under the target.
      const target = withoutHuge - createTokenCounter().estimate(giant.slice(2, 6)) + 100;
      const { output, tokens } = await run(giant, { limit: giantTotal, target }, { minRecentTurns: 2 });
      expect(output.messages).not.toContain(giant[6]);
      expect(tokens).toBeLessThanOrEqual(target);
      expect(output.details).toMatchObject({ shortenedTurns: 0 });
    });
  });

  it('keeps a last turn whose tool calls still wait for their results', async () => {
    const [call] = toolTurn('running', 10);
    const waiting = [...messages.slice(0, -1), call!];
    const size = createTokenCounter().estimate(waiting);
    const { output, violations } = await run(
      waiting,
      { limit: size, target: Math.floor(size / 4) },
      {
        minRecentTurns: 0,
      },
    );
    expect(violations).toEqual([]);
    expect(output.messages.at(-1)).toBe(call);
  });

  it('keeps the original task it cannot drop when a pinned model message would otherwise stand first', async () => {
    // Without the original task, the tally drops it first; but a history that starts with a user turn must
    // still do, and a pinned assistant message would then stand first, so the task stays after all.
    const task = userMessage(`Fix the failing build. ${'Context of the task. '.repeat(60)}`);
    const pinned = withCompactionMetadata(assistantMessage('Plan: read the log, fix the import, rerun.'), {
      pinned: true,
    });
    const messages: Message[] = [
      task,
      pinned,
      ...toolTurn('call-1', 4000),
      userMessage('Now rerun the tests.'),
    ];
    const floor = (await run([task, pinned, messages[4]!], { limit: 100_000, target: 100_000 })).tokens;
    const budget = { limit: floor + 40, target: floor + 20 };
    const options = { keepOriginalTask: false, minRecentTurns: 0, marker: false };
    const { output, violations, tokens } = await run(messages, budget, options);
    expect(violations).toEqual([]);
    expect(output.messages[0]).toBe(task);
    expect(tokens).toBeLessThanOrEqual(budget.target);
  });

  it('rejects a malformed history with a typed error', async () => {
    const [, orphanedResult] = toolTurn('nowhere', 10);
    const history = [userMessage('task'), orphanedResult, userMessage('now')];
    await expect(run(history, { limit: 10, target: 5 })).rejects.toBeInstanceOf(InvalidMessagesError);
  });

  it('validates its options, directly and through the registry', async () => {
    expect(() => createPruning({ minRecentTurns: -1 })).toThrow(InvalidOptionsError);
    expect(() => createPruning({ unknown: true } as never)).toThrow(InvalidOptionsError);
    const registry = createStrategyRegistry({ definitions: [pruningDefinition] });
    await expect(registry.resolve({ name: 'pruning', options: { marker: 'yes' } })).rejects.toBeInstanceOf(
      InvalidOptionsError,
    );
    const strategy = await registry.resolve('pruning');
    expect(strategy.name).toBe('pruning');
  });

  it('types its options by name for configs', () => {
    expectTypeOf<StrategyOptionsByName['pruning']>().toEqualTypeOf<PruningOptions>();
  });
});

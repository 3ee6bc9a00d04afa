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
import slidingWindowDefinition, {
  createSlidingWindow,
  markerText,
  type SlidingWindowOptions,
} from './index.js';

async function run(messages: Message[], budget: { limit: number; target: number }, options = {}) {
  const counter = createTokenCounter();
  const output = await createSlidingWindow(options).compact({
    messages,
    counter,
    budget,
    trigger: 'auto',
    round: 3,
  });
  const violations = verifyCompaction({
    before: messages,
    after: output.messages,
    counter,
    limit: budget.limit,
  });
  return { output, counter, violations, tokens: counter.estimate(output.messages) };
}

describe('createSlidingWindow', () => {
  const messages = codingConversation(20);
  const counter = createTokenCounter();
  const total = counter.estimate(messages);
  const turnTokens = counter.estimate(messages.slice(2, 4));

  it('keeps the head and the newest turns that fit the target, with a marker for what was skipped', async () => {
    const target = Math.floor(total / 2);
    const { output, violations, tokens } = await run(messages, { limit: total, target });
    expect(violations).toEqual([]);
    expect(tokens).toBeLessThanOrEqual(target);
    expect(output.messages.slice(0, 2)).toEqual(messages.slice(0, 2));
    // After the first kept model turn: right after the task, Anthropic would merge it into the task's message.
    const marker = output.messages.find((message) => compactionMetadataOf(message)?.kind === 'marker')!;
    expect(output.messages.indexOf(marker)).toBeGreaterThan(2);
    expect(compactionMetadataOf(marker)).toEqual({
      kind: 'marker',
      round: 3,
      strategy: 'sliding-window',
      removedMessages: output.details?.removedMessages,
    });
    expect(marker.role).toBe('user');
    expect(latestUserMessageIndex([marker])).toBe(-1);
    expect(textOf(marker)).toBe(markerText(output.details?.removedMessages as number));
    const window = output.messages.slice(2).filter((message) => message !== marker);
    expect(window).toEqual(messages.slice(messages.length - window.length));
    // The window is as large as fits: one more turn would cross the target.
    expect(tokens + turnTokens).toBeGreaterThan(target);
  });

  it('caps the window at windowTokens even when the target would allow more', async () => {
    const { output, violations } = await run(
      messages,
      { limit: total, target: total },
      { windowTokens: 3 * turnTokens + 10 },
    );
    expect(violations).toEqual([]);
    // Three tool turns (six messages) after the head, the marker, and the newest request.
    expect(output.messages).toHaveLength(2 + 1 + 6 + 1);
  });

  it('shortens the tool results of a newest turn that alone exceeds the window, keeping it whole', async () => {
    const history = [
      systemMessage('agent'),
      userMessage('task'),
      ...toolTurn('a', 800),
      ...toolTurn('big', 40_000),
    ];
    const size = createTokenCounter().estimate(history);
    const target = Math.floor(size / 4);
    const { output, violations, tokens } = await run(history, { limit: target, target });
    expect(violations).toEqual([]);
    expect(tokens).toBeLessThanOrEqual(target);
    const [call, result] = output.messages.slice(-2);
    expect(call).toBe(history[4]);
    expect(compactionMetadataOf(result!)?.kind).toBe('modified');
    const output0 = (result as Extract<Message, { role: 'tool' }>).content[0]!.output as string;
    expect(output0).toMatch(/characters omitted/);
    expect(output0.startsWith('big:')).toBe(true);
    expect(output.details?.shortenedTurns).toBe(1);
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
      { keepOriginalTask: false },
    );
    expect(violations).toEqual([]);
    expect(output.messages.slice(0, 3)).toEqual(history.slice(0, 3));
    expect(output.messages.slice(0, 3).every((message, index) => message === history[index])).toBe(true);
  });

  it('returns the history unchanged when it fits', async () => {
    const { output } = await run(messages, { limit: total, target: total });
    expect(output.messages).toEqual(messages);
    expect(output.messages.every((message, index) => message === messages[index])).toBe(true);
  });

  it('throws BudgetUnreachableError with the target and the best when the head alone is over the limit', async () => {
    const history = [
      systemMessage('x'.repeat(4000)),
      userMessage('task'),
      ...toolTurn('a', 100),
      userMessage('now'),
    ];
    const head = createTokenCounter().estimate([history[0]!, history[1]!, history[4]!]);
    const error = await run(history, { limit: 100, target: 50 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BudgetUnreachableError);
    expect(error).toMatchObject({ target: 50, limit: 100, best: head });
  });

  it('fills the target with a huge older turn shortened instead of stopping the window before it', async () => {
    const history = [
      systemMessage('agent'),
      userMessage('task'),
      ...toolTurn('old', 2_000),
      ...toolTurn('huge', 2_000_000),
      ...toolTurn('a', 2_000),
      ...toolTurn('b', 2_000),
      userMessage('What did you find?'),
    ];
    const size = createTokenCounter().estimate(history);
    const target = Math.floor(size * 0.1);
    const { output, violations, tokens } = await run(history, { limit: target, target });
    expect(violations).toEqual([]);
    expect(tokens).toBeLessThanOrEqual(target);
    expect(tokens).toBeGreaterThanOrEqual(target * 0.95);
    // The window runs from the shortened huge turn to the end; only the turn before it is skipped.
    expect(output.messages.slice(-5)).toEqual(history.slice(-5));
    expect(output.messages).toContain(history[4]);
    expect(output.messages).not.toContain(history[2]);
    expect(output.details).toMatchObject({ shortenedTurns: 1, removedMessages: 2 });
  });

  it('keeps the original task it cannot leave out when a pinned model message would otherwise stand first', async () => {
    // Without the original task the window may leave it out; but a history that starts with a user turn
    // must still do, and a pinned assistant message would then stand first, so the task stays after all.
    const task = userMessage(`Fix the failing build. ${'Context of the task. '.repeat(60)}`);
    const pinned = withCompactionMetadata(assistantMessage('Plan: read the log, fix the import, rerun.'), {
      pinned: true,
    });
    const request = userMessage('Now rerun the tests.');
    const messages: Message[] = [
      task,
      pinned,
      ...toolTurn('call-1', 4000),
      ...toolTurn('call-2', 40),
      request,
    ];
    const floor = (await run([task, pinned, request], { limit: 100_000, target: 100_000 })).tokens;
    const budget = { limit: floor + 200, target: floor + 100 };
    const { output, violations, tokens } = await run(messages, budget, {
      keepOriginalTask: false,
      marker: false,
    });
    expect(violations).toEqual([]);
    expect(output.messages[0]).toBe(task);
    expect(tokens).toBeLessThanOrEqual(budget.target);
  });

  it('rejects a malformed history with a typed error', async () => {
    const [, orphanedResult] = toolTurn('nowhere', 10);
    await expect(
      run([userMessage('task'), orphanedResult, userMessage('now')], { limit: 10, target: 5 }),
    ).rejects.toBeInstanceOf(InvalidMessagesError);
  });

  it('validates its options, directly and through the registry', async () => {
    expect(() => createSlidingWindow({ windowTokens: 0 })).toThrow(InvalidOptionsError);
    const registry = createStrategyRegistry({ definitions: [slidingWindowDefinition] });
    await expect(
      registry.resolve({ name: 'sliding-window', options: { windowTokens: 'many' } }),
    ).rejects.toBeInstanceOf(InvalidOptionsError);
    expect((await registry.resolve('sliding-window')).name).toBe('sliding-window');
  });

  it('types its options by name for configs', () => {
    expectTypeOf<StrategyOptionsByName['sliding-window']>().toEqualTypeOf<SlidingWindowOptions>();
  });
});

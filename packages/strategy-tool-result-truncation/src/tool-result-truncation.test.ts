import {
  type AssistantMessage,
  BudgetUnreachableError,
  compactionMetadataOf,
  createStrategyRegistry,
  createTokenCounter,
  InvalidMessagesError,
  InvalidOptionsError,
  type Message,
  type StrategyOptionsByName,
  type ToolMessage,
  verifyCompaction,
  withCompactionMetadata,
} from '@compaction/core';
import { codingConversation, testRunnerLog, toolTurn, userMessage } from '@compaction/testing';

import { describe, expect, expectTypeOf, it } from 'vitest';
import toolResultTruncation, {
  createToolResultTruncation,
  type ToolResultTruncationOptions,
} from './index.js';

async function run(
  messages: Message[],
  budget: { limit: number; target: number },
  options: ToolResultTruncationOptions = {},
  counter = createTokenCounter(),
) {
  const output = await createToolResultTruncation(options).compact({
    messages,
    counter,
    budget,
    trigger: 'auto',
    round: 1,
  });
  const violations = verifyCompaction({
    before: messages,
    after: output.messages,
    counter,
    limit: budget.limit,
  });
  return { output, violations, tokens: counter.estimate(output.messages) };
}

const outputOf = (message: Message | undefined) => (message as ToolMessage).content[0]!.output as string;

describe('createToolResultTruncation', () => {
  const messages = codingConversation(10, 4000);
  const total = createTokenCounter().estimate(messages);

  it('shortens old results oldest first, stops at the target and keeps the calls and the newest results', async () => {
    const target = Math.floor(total * 0.7);
    const { output, violations, tokens } = await run(messages, { limit: total, target });
    expect(violations).toEqual([]);
    expect(tokens).toBeLessThanOrEqual(target);
    expect(output.messages).toHaveLength(messages.length);
    const changed = output.messages.flatMap((message, index) => (message === messages[index] ? [] : [index]));
    // Only tool messages changed, the oldest ones, and fewer than all old ones: it stopped at the target.
    expect(changed.every((index) => messages[index]!.role === 'tool')).toBe(true);
    expect(changed[0]).toBe(3);
    expect(changed.length).toBeLessThan(7);
    expect(changed).toEqual(changed.map((_, position) => 3 + 2 * position));
    for (const index of changed) {
      expect(compactionMetadataOf(output.messages[index]!)).toEqual({
        kind: 'modified',
        round: 1,
        strategy: 'tool-result-truncation',
      });
      expect(outputOf(output.messages[index])).toMatch(
        /^call_\d+:\nPASS [\s\S]*\n\[\.\.\. \d+ characters omitted \.\.\.\]\nPASS /,
      );
    }
  });

  it('never touches the newest results, even when the target is out of reach', async () => {
    const { output, tokens } = await run(messages, { limit: total, target: 1 }, { keepRecent: 3 });
    expect(tokens).toBeGreaterThan(1);
    const tools = output.messages.filter((message) => message.role === 'tool');
    expect(tools.slice(-3)).toEqual(messages.filter((message) => message.role === 'tool').slice(-3));
    expect(tools.slice(0, -3).every((message) => compactionMetadataOf(message)?.kind === 'modified')).toBe(
      true,
    );
  });

  it('masks results with a placeholder naming the tool and the size removed', async () => {
    const { output } = await run(messages, { limit: total, target: 1 }, { mode: 'mask' });
    expect(outputOf(output.messages[3])).toMatch(/^\[bash output removed: 4000 characters\]$/);
    const counter = createTokenCounter();
    expect(counter.countMessage(output.messages[3]!)).toBeLessThan(30);
  });

  it('keeps the newest results when they are split over several tool messages of one turn', async () => {
    const [call, first] = toolTurn('a', 4000);
    const [, second] = toolTurn('b', 4000);
    const twoResults: AssistantMessage = {
      ...call,
      content: [
        ...call.content,
        { ...call.content[0]!, toolCallId: 'b' } as AssistantMessage['content'][number],
      ],
    };
    const history: Message[] = [...messages.slice(0, -1), twoResults, first, second, userMessage('next')];
    const size = createTokenCounter().estimate(history);
    const { output, violations } = await run(history, { limit: size, target: 1 }, { keepRecent: 1 });
    expect(violations).toEqual([]);
    const last = history.length - 2;
    expect(output.messages[last]).toBe(second);
    expect(compactionMetadataOf(output.messages[last - 1]!)?.kind).toBe('modified');
  });

  it('leaves exempt tools and pinned results alone', async () => {
    const [call, result] = toolTurn('read', 4000);
    const readCall: AssistantMessage = {
      ...call,
      content: [{ type: 'tool-call', toolCallId: 'read', toolName: 'read_file', input: { path: 'a.ts' } }],
    };
    const readResult: ToolMessage = {
      role: 'tool',
      content: [{ ...result.content[0]!, toolName: 'read_file' }],
    };
    const [pinnedCall, pinnedResult] = toolTurn('pinned', 4000);
    const history = [
      userMessage('task'),
      readCall,
      readResult,
      pinnedCall,
      withCompactionMetadata(pinnedResult, { pinned: true }),
      ...messages.slice(2),
    ];
    const { output, violations } = await run(
      history,
      { limit: total * 2, target: 1 },
      { exemptTools: ['read_file'] },
    );
    expect(violations).toEqual([]);
    expect(output.messages[2]).toBe(readResult);
    expect(output.messages[4]).toBe(history[4]);
  });

  it('clears large inputs of old calls when asked', async () => {
    const history: Message[] = [userMessage('task')];
    for (let index = 0; index < 6; index++) {
      const id = `edit_${index}`;
      history.push(
        {
          role: 'assistant',
          content: [
            {
              type: 'tool-call',
              toolCallId: id,
              toolName: 'write_file',
              input: { content: testRunnerLog('y', 3000) },
            },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: id, toolName: 'write_file', output: testRunnerLog('z', 3000) },
          ],
        },
      );
    }
    const size = createTokenCounter().estimate(history);
    const { output, violations } = await run(history, { limit: size, target: 1 }, { clearToolInputs: true });
    expect(violations).toEqual([]);
    const firstCall = (output.messages[1] as AssistantMessage).content[0]!;
    expect(firstCall).toMatchObject({
      type: 'tool-call',
      toolCallId: 'edit_0',
      input: {
        omitted: `${JSON.stringify({ content: testRunnerLog('y', 3000) }).length} characters of input removed to save space`,
      },
    });
    expect(output.details?.clearedInputs).toBe(3);
  });

  it('changes nothing when a run would free fewer tokens than minTokensSaved', async () => {
    const target = total - 10;
    const { output } = await run(messages, { limit: total, target }, { minTokensSaved: total });
    expect(output.messages.every((message, index) => message === messages[index])).toBe(true);
  });

  it('leaves results it already shortened alone in a later round', async () => {
    const counter = createTokenCounter();
    const first = await run(messages, { limit: total, target: 1 }, {}, counter);
    const second = await run(first.output.messages, { limit: total, target: 1 }, {}, counter);
    expect(second.output.details?.shortenedResults).toBe(0);
    expect(second.output.messages.every((message, index) => message === first.output.messages[index])).toBe(
      true,
    );
  });

  it('throws BudgetUnreachableError with the target and the best when even shortened results are over it', async () => {
    const error = await run(messages, { limit: 60, target: 50 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BudgetUnreachableError);
    const { best } = error as BudgetUnreachableError;
    expect(error).toMatchObject({ target: 50, limit: 60 });
    // The best is the history with every old result shortened: the newest three stay whole.
    expect(best).toBeGreaterThan(createTokenCounter().estimate(messages.slice(-7)));
    expect(best).toBeLessThan(total / 2);
  });

  describe('one huge old result', () => {
    const [hugeCall, hugeResult] = toolTurn('huge', 1_000_000);
    const history: Message[] = [...messages.slice(0, 2), hugeCall, hugeResult, ...messages.slice(2)];
    const size = createTokenCounter().estimate(history);
    const target = Math.floor(size / 2);

    for (const mode of ['truncate', 'mask'] as const) {
      it(`${mode}: keeps as much of it as the target allows instead of emptying it`, async () => {
        const { output, violations, tokens } = await run(history, { limit: size, target }, { mode });
        expect(violations).toEqual([]);
        expect(tokens).toBeLessThanOrEqual(target);
        expect(tokens).toBeGreaterThanOrEqual(target * 0.95);
        const text = outputOf(output.messages[3]);
        expect(text.startsWith('huge:')).toBe(true);
        expect(text).toMatch(/characters omitted/);
        // It alone met the target: every later result is untouched.
        expect(output.messages.slice(4)).toEqual(history.slice(4));
        output.messages.slice(4).forEach((message, index) => {
          expect(message).toBe(history[4 + index]);
        });
        expect(output.details).toMatchObject({ shortenedResults: 1 });
      });
    }

    it('shortens it further in a later round with a lower target', async () => {
      const counter = createTokenCounter();
      const first = await run(history, { limit: size, target }, {}, counter);
      const lower = Math.floor(target / 4);
      const second = await run(first.output.messages, { limit: size, target: lower }, {}, counter);
      expect(second.tokens).toBeLessThanOrEqual(lower);
      expect(outputOf(second.output.messages[3]).length).toBeLessThan(
        outputOf(first.output.messages[3]).length,
      );
    });
  });

  it('rejects a malformed history with a typed error', async () => {
    const [, orphanedResult] = toolTurn('nowhere', 10);
    await expect(
      run([userMessage('task'), orphanedResult, userMessage('now')], { limit: 10, target: 5 }),
    ).rejects.toBeInstanceOf(InvalidMessagesError);
  });

  it('validates its options, directly and through the registry', async () => {
    expect(() => createToolResultTruncation({ mode: 'drop' as never })).toThrow(InvalidOptionsError);
    expect(() => createToolResultTruncation({ keepRecent: 1.5 })).toThrow(InvalidOptionsError);
    const registry = createStrategyRegistry({ definitions: [toolResultTruncation] });
    await expect(
      registry.resolve({ name: 'tool-result-truncation', options: { exemptTools: 'bash' } }),
    ).rejects.toBeInstanceOf(InvalidOptionsError);
    expect((await registry.resolve('tool-result-truncation')).name).toBe('tool-result-truncation');
  });

  it('types its options by name for configs', () => {
    expectTypeOf<
      StrategyOptionsByName['tool-result-truncation']
    >().toEqualTypeOf<ToolResultTruncationOptions>();
  });
});

describe('tool-result-truncation with archive', () => {
  it('masks a result with a placeholder naming its handle, which holds the whole output', async () => {
    const output = 'x'.repeat(2141);
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'task' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'bash', input: { command: 'ls' } }],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'bash', output }] },
      { role: 'user', content: [{ type: 'text', text: 'next' }] },
    ];
    const counter = createTokenCounter();
    const strategy = createToolResultTruncation({ mode: 'mask', keepRecent: 0, maxResultTokens: 10 });
    const input = {
      messages,
      counter,
      budget: { limit: 200, target: 100 },
      trigger: 'auto' as const,
      round: 1,
    };
    const archived = await strategy.compact({ ...input, archive: true });
    const [item] = archived.archived!;
    expect(item).toMatchObject({ label: 'bash output', text: output });
    expect((archived.messages[2] as ToolMessage).content[0]!.output).toBe(
      `[bash output, 2,141 characters, cleared: recall "${item!.handle}"]`,
    );
    const plain = await strategy.compact(input);
    expect(plain.archived).toBeUndefined();
    expect((plain.messages[2] as ToolMessage).content[0]!.output).toBe(
      '[bash output removed: 2141 characters]',
    );
  });
});

import {
  BudgetUnreachableError,
  CompactionAbortedError,
  type CompactionInput,
  compactionMetadataOf,
  createStrategyRegistry,
  createTokenCounter,
  InvalidOptionsError,
  type Message,
  textOf,
  verifyCompaction,
  withCompactionMetadata,
} from '@compaction/core';
import { isSummary } from '@compaction/strategy-kit';
import { createMockProvider } from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import { codingHistory, promptOf, summarizingProvider, wellFormedSummary } from './__fixtures__/summaries.js';
import { createSummarization } from './create-summarization.js';
import { SummarizationFailedError } from './errors/summarization-failed-error.js';
import summarizationDefinition from './index.js';

function inputFor(messages: Message[], share: number, extra: Partial<CompactionInput> = {}): CompactionInput {
  const counter = createTokenCounter();
  const target = Math.floor(counter.estimate(messages) * share);
  return { messages, counter, budget: { limit: target, target }, trigger: 'auto', round: 1, ...extra };
}

function expectValid(input: CompactionInput, after: Message[]) {
  const violations = verifyCompaction({
    before: input.messages,
    after,
    counter: input.counter,
    limit: input.budget.limit,
  });
  expect(violations).toEqual([]);
}

const allText = (messages: readonly Message[]) => messages.map(textOf).join('\n');
const textOfResult = (message: Message) =>
  message.role === 'tool' ? (message.content[0]!.output as string) : '';

describe('createSummarization', () => {
  it('returns the history unchanged when it is already under the target', async () => {
    const messages = codingHistory(3);
    const strategy = createSummarization({ provider: summarizingProvider() });
    const output = await strategy.compact(inputFor(messages, 1.5));
    expect(output.messages).toEqual(messages);
    output.messages.forEach((message, index) => {
      expect(message).toBe(messages[index]);
    });
  });

  it('keeps the head, the newest request and recent turns, and summarizes only the evicted span', async () => {
    const messages = codingHistory(30);
    const provider = summarizingProvider();
    const input = inputFor(messages, 0.3);
    const output = await createSummarization({ provider }).compact(input);
    expectValid(input, output.messages);

    const [system, summary, task] = output.messages;
    expect(system).toBe(messages[0]);
    expect(summary?.role).toBe('user');
    expect(isSummary(summary!)).toBe(true);
    expect(compactionMetadataOf(summary!)).toMatchObject({
      kind: 'summary',
      round: 1,
      strategy: 'summarization',
    });
    expect(task).toBe(messages[1]);
    expect(output.messages.at(-1)).toBe(messages.at(-1));
    // The turn just before the newest request is a recent turn, kept verbatim.
    expect(output.messages).toContain(messages.at(-2));

    expect(provider.requests).toHaveLength(1);
    const prompt = promptOf(provider.requests[0]!);
    const details = output.details as { summarizedMessages: number; keptRecentTurns: number };
    expect(details.keptRecentTurns).toBeGreaterThanOrEqual(2);
    // The evicted span (and nothing kept verbatim) went to the summarizer.
    expect(prompt).toContain('Step 0: working on it.');
    expect(prompt).not.toContain('Now also update the changelog.');
    expect(prompt).not.toContain('Step 29: working on it.');
    expect(details.summarizedMessages).toBe(messages.length - 3 - 2 * details.keptRecentTurns);
    expect(output.summary).toContain('## Goals and constraints');
    expect(output.summary).toContain('## Artifact trail');
  });

  it('merges the previous summary, found by metadata, and counts rounds', async () => {
    const provider = createMockProvider({
      responses: [
        wellFormedSummary('first round'),
        wellFormedSummary('second round'),
        wellFormedSummary('third'),
      ],
    });
    const strategy = createSummarization({ provider });
    const first = await strategy.compact(inputFor(codingHistory(30), 0.3));
    const previousSummary = first.messages.find(isSummary)!;
    // Work continues with no new user message: the newest user message is now the task again.
    const continued = renumberCalls(
      [...first.messages.slice(0, -1), ...codingHistory(30).slice(2, -1), first.messages.at(-1)!],
      1,
    );
    const secondInput = inputFor(continued, 0.3, { round: 1 });
    const second = await strategy.compact(secondInput);
    expectValid(secondInput, second.messages);

    const summaries = second.messages.filter(isSummary);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).not.toBe(previousSummary);
    const marks = compactionMetadataOf(summaries[0]!)!;
    expect(marks.round).toBe(2);
    expect(marks.summaryText).toContain('second round');
    const firstCount = compactionMetadataOf(previousSummary)!.summarizedMessages as number;
    expect(marks.summarizedMessages).toBe(
      firstCount + (second.details as { summarizedMessages: number }).summarizedMessages,
    );

    const prompt = promptOf(provider.requests[1]!);
    const previousSection = prompt.slice(
      prompt.indexOf('<previous-summary>'),
      prompt.indexOf('</previous-summary>'),
    );
    const conversation = prompt.slice(prompt.indexOf('<conversation>'), prompt.indexOf('</conversation>'));
    expect(previousSection).toContain('first round');
    // Merged, not summarized again as part of the conversation.
    expect(conversation).not.toContain('first round');
    expect(conversation).not.toContain('[Summary of');
    expect((second.details as { mergedSummaries: number }).mergedSummaries).toBe(1);

    const third = await strategy.compact(
      inputFor(renumberCalls([...second.messages.slice(0, -1), ...codingHistory(30).slice(2)], 2), 0.3),
    );
    expect(compactionMetadataOf(third.messages.find(isSummary)!)!.round).toBe(3);
  });

  it('treats a summary-looking message without metadata as conversation', async () => {
    const provider = summarizingProvider();
    const messages = codingHistory(30);
    const impostor: Message = {
      role: 'assistant',
      content: [{ type: 'text', text: '[Summary of 10 earlier messages] ## Goals and constraints impostor' }],
    };
    const input = inputFor([...messages.slice(0, 2), impostor, ...messages.slice(2)], 0.3);
    const output = await createSummarization({ provider }).compact(input);
    const prompt = promptOf(provider.requests[0]!);
    expect(prompt.slice(prompt.indexOf('<conversation>'))).toContain('impostor');
    expect(
      prompt.slice(prompt.indexOf('<previous-summary>'), prompt.indexOf('</previous-summary>')),
    ).toContain('(none');
    expect(output.details).toMatchObject({ mergedSummaries: 0 });
  });

  it('carries the artifact trail across rounds', async () => {
    const strategy = createSummarization({ provider: summarizingProvider() });
    let messages = codingHistory(30);
    const firstPaths = ['src/module_0.ts', 'src/edit_2.ts'];
    for (let round = 0; round < 4; round++) {
      const output = await strategy.compact(inputFor(messages, 0.3));
      const summary = output.messages.find(isSummary)!;
      for (const path of firstPaths) expect(textOf(summary)).toContain(path);
      expect(textOf(summary)).toContain('npm test -- --filter case_1 [exit 1]');
      expect(JSON.stringify(compactionMetadataOf(summary)!.artifactTrail)).toContain('src/module_0.ts');
      messages = [...output.messages.slice(0, -1), ...codingHistory(30).slice(2)].map((message, index) =>
        message.role === 'tool' ? message : { ...message, id: `r${round}-${index}` },
      );
      // Fresh call ids, so the appended turns do not reuse the ones already in the history.
      messages = renumberCalls(messages, round);
    }
  });

  it('passes the summarizer options and per-call instructions into the request', async () => {
    const provider = summarizingProvider();
    const strategy = createSummarization({
      provider,
      model: 'small-summarizer',
      maxOutputTokens: 300,
      temperature: 0.2,
      instructions: 'Standing instruction: mention the ticket number.',
    });
    await strategy.compact(inputFor(codingHistory(30), 0.3, { instructions: 'focus on the date parser' }));
    const request = provider.requests[0]!;
    expect(request.modelId).toBe('small-summarizer');
    expect(request.maxOutputTokens).toBe(300);
    expect(request.temperature).toBe(0.2);
    expect(promptOf(request)).toContain(
      'Additional instructions: Standing instruction: mention the ticket number.\nfocus on the date parser',
    );
  });

  it('fills a custom template with its named placeholders', async () => {
    const provider = createMockProvider({ responses: ['SHORT SUMMARY'] });
    const template =
      'Round {{round}}.\nBefore: {{previousSummary}}\nDo: {{instructions}}\nTrail:\n{{artifactTrail}}\nChat:\n{{conversation}}\nEnd.';
    const output = await createSummarization({ provider, template }).compact(
      inputFor(codingHistory(30), 0.3, { round: 4, instructions: 'be brief' }),
    );
    const prompt = promptOf(provider.requests[0]!);
    expect(prompt).toMatch(
      /^Round 4\.\nBefore: \(none: this is the first summary\)\nDo: be brief\nTrail:\n## Artifact trail\n/,
    );
    expect(prompt).toContain('Chat:\n[assistant]\nStep 0: working on it.');
    expect(prompt.endsWith('End.')).toBe(true);
    // A custom template requires no sections unless told to.
    expect(output.details).not.toHaveProperty('fallback');
    expect(output.summary).toContain('SHORT SUMMARY');
  });

  it('rejects templates without {{conversation}} or with unknown placeholders', () => {
    const provider = summarizingProvider();
    expect(() => createSummarization({ provider, template: 'Summarize {{previousSummary}}' })).toThrow(
      InvalidOptionsError,
    );
    expect(() => createSummarization({ provider, template: '{{conversation}} {{mood}}' })).toThrow(
      /\{\{mood\}\}/,
    );
    expect(() => createSummarization({ provider, recentShare: 2 } as never)).toThrow(InvalidOptionsError);
  });

  it('throws InvalidOptionsError naming what to set when there is no provider', async () => {
    expect(() => createSummarization()).toThrow(InvalidOptionsError);
    expect(() => createSummarization()).toThrow(/createSummarization\(\{ provider \}\)/);
    const registry = createStrategyRegistry({ definitions: [summarizationDefinition as never] });
    await expect(registry.resolve('summarization')).rejects.toSatisfy(
      (error) => InvalidOptionsError.isInstance(error) && error.issues[0]?.path === 'provider',
    );
    const provider = summarizingProvider();
    const strategy = await registry.resolve(
      { name: 'summarization', options: { recentShare: 0.2 } },
      { provider },
    );
    const output = await strategy.compact(inputFor(codingHistory(30), 0.3));
    expect(output.messages.some(isSummary)).toBe(true);
    expect(provider.requests).toHaveLength(1);
  });

  it('places an assistant summary after the task and still merges it in the next round', async () => {
    const strategy = createSummarization({
      provider: summarizingProvider(),
      placement: 'assistant-after-task',
    });
    const messages = codingHistory(30);
    const input = inputFor(messages, 0.3);
    const output = await strategy.compact(input);
    expectValid(input, output.messages);
    expect(output.messages[1]).toBe(messages[1]);
    expect(output.messages[2]?.role).toBe('assistant');
    expect(isSummary(output.messages[2]!)).toBe(true);
    const next = renumberCalls([...output.messages.slice(0, -1), ...codingHistory(30).slice(2)], 9);
    const nextInput = inputFor(next, 0.3);
    const again = await strategy.compact(nextInput);
    expectValid(nextInput, again.messages);
    expect(again.messages.filter(isSummary)).toHaveLength(1);
    expect(compactionMetadataOf(again.messages.find(isSummary)!)!.round).toBe(2);
  });

  it('places the summary as a user message after the task when an assistant message with reasoning would follow it', async () => {
    const strategy = createSummarization({
      provider: summarizingProvider(),
      placement: 'assistant-after-task',
    });
    // Every turn starts with signed reasoning, as with extended thinking.
    const messages = codingHistory(30).map((message) =>
      message.role === 'assistant'
        ? {
            ...message,
            content: [{ type: 'reasoning' as const, text: 'plan', signature: 'sig' }, ...message.content],
          }
        : message,
    );
    const input = inputFor(messages, 0.3);
    const output = await strategy.compact(input);
    expectValid(input, output.messages);
    const at = output.messages.findIndex(isSummary);
    expect(output.messages[at]!.role).toBe('user');
    // The system prompt and the task open the conversation as they were: the prompt cache still holds them.
    expect(output.messages.slice(0, at)).toEqual([messages[0], messages[1]]);
    expect(output.messages[at + 1]!.content[0]?.type).toBe('reasoning');
    expect(output.details).toMatchObject({ summaryRole: 'user' });
    // It says where the task is: above it, not after it.
    expect(textOf(output.messages[at]!)).toMatch(
      /^\[Summary of \d+ earlier messages, compaction round 1; the task is above/,
    );
    // The next round replaces it in the same place, merged.
    const next = renumberCalls([...output.messages.slice(0, -1), ...messages.slice(2)], 9);
    const nextInput = inputFor(next, 0.3);
    const again = await strategy.compact(nextInput);
    expectValid(nextInput, again.messages);
    const summaries = again.messages.filter(isSummary);
    expect(summaries).toHaveLength(1);
    expect(compactionMetadataOf(summaries[0]!)!.round).toBe(2);
    expect(again.messages.slice(0, 2)).toEqual([messages[0], messages[1]]);
  });

  it('keeps a huge newest turn with its results shortened instead of summarizing it away', async () => {
    const messages = codingHistory(20);
    const huge = 'x'.repeat(10) + '\nhuge line\n'.repeat(100_000);
    const last = messages.length - 2;
    const withHuge = messages.map((message, index) =>
      index === last && message.role === 'tool'
        ? { ...message, content: [{ ...message.content[0]!, output: huge }] }
        : message,
    );
    const input = inputFor(withHuge, 0.3);
    const output = await createSummarization({ provider: summarizingProvider() }).compact(input);
    expectValid(input, output.messages);
    // The call stays as it was; its result keeps its start and end.
    expect(output.messages.at(-3)).toBe(withHuge[last - 1]);
    const result = output.messages.at(-2)!;
    expect(compactionMetadataOf(result)).toMatchObject({ kind: 'modified', strategy: 'summarization' });
    expect(textOfResult(result)).toMatch(/^x{10}\nhuge line[\s\S]*characters omitted[\s\S]*huge line\n$/);
    expect(output.details).toMatchObject({ summarized: true, shortenedTurns: 1 });
    // The shortened turn takes the recent turns' share of the target, not a sliver of it.
    const target = input.budget.target;
    expect(input.counter.estimate([output.messages.at(-3)!, result])).toBeGreaterThan(0.25 * target);
  });

  it('takes the first user request as the task, not a removal marker standing before it', async () => {
    const messages = codingHistory(30);
    const marker = withCompactionMetadata<Message>(
      { role: 'user', content: [{ type: 'text', text: '[4 earlier messages removed to save space.]' }] },
      { kind: 'marker', round: 1, strategy: 'pruning' },
    );
    const withMarker = [messages[0]!, marker, ...messages.slice(1)];
    const input = inputFor(withMarker, 0.3);
    const output = await createSummarization({ provider: summarizingProvider() }).compact(input);
    expectValid(input, output.messages);
    // The marker was summarized with the old turns; the summary stands before the task, kept verbatim.
    expect(output.messages).not.toContain(marker);
    const at = output.messages.findIndex(isSummary);
    expect(output.messages[at + 1]).toBe(messages[1]);
  });

  it('throws BudgetUnreachableError with the target and the best when the verbatim head is over it', async () => {
    const messages = codingHistory(10);
    const huge = [
      messages[0]!,
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'y'.repeat(20_000) }] },
      ...messages.slice(2),
    ];
    const input = inputFor(huge, 0.2);
    const error = await createSummarization({ provider: summarizingProvider() })
      .compact(input)
      .catch((caught: unknown) => caught);
    expect(BudgetUnreachableError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ target: input.budget.target, limit: input.budget.limit });
    expect((error as BudgetUnreachableError).best).toBeGreaterThan(input.budget.target);
  });

  it('turns an abort into CompactionAbortedError', async () => {
    const controller = new AbortController();
    const provider = createMockProvider({ responses: [wellFormedSummary()], latencyMs: 1000 });
    const pending = createSummarization({ provider }).compact(
      inputFor(codingHistory(30), 0.3, { abortSignal: controller.signal }),
    );
    controller.abort();
    await expect(pending).rejects.toSatisfy(CompactionAbortedError.isInstance);
  });
});

describe('failures and the fallback', () => {
  const failures = {
    'provider-error': new Error('503 overloaded after retries'),
    empty: '   ',
    'cut-off': { text: wellFormedSummary().slice(0, 80), finishReason: 'length' as const },
    malformed: "I'm sorry, I can't summarize this conversation.",
    'too-long': wellFormedSummary('x'.repeat(60_000)),
  };

  for (const [reason, response] of Object.entries(failures)) {
    it(`${reason}: falls back to the extractive digest and loses nothing`, async () => {
      const provider = createMockProvider({ responses: [wellFormedSummary('earlier'), response] });
      const strategy = createSummarization({ provider });
      const first = await strategy.compact(inputFor(codingHistory(30), 0.3));
      const messages = renumberCalls([...first.messages.slice(0, -1), ...codingHistory(30).slice(2)], 5);
      const input = inputFor(messages, 0.3);
      const output = await strategy.compact(input);
      expectValid(input, output.messages);
      expect(output.details).toMatchObject({ fallback: 'extractive', reason });

      const summary = output.messages.find(isSummary)!;
      expect(compactionMetadataOf(summary)).toMatchObject({ fallback: 'extractive', round: 2 });
      const text = allText(output.messages);
      // The earlier summary, the task, the newest request and every artifact of both rounds are still there.
      expect(text).toContain('earlier for goals and constraints.');
      expect(output.messages).toContain(
        messages.find((message) => message.role === 'user' && !isSummary(message)),
      );
      expect(output.messages.at(-1)).toBe(messages.at(-1));
      for (const step of [0, 3, 27]) expect(text).toContain(`src/module_${step}.ts`);
      for (const step of [2, 26]) expect(text).toContain(`src/edit_${step}.ts`);
      expect(text).toContain('npm test -- --filter case_1 [exit 1]');
      expect(text).not.toContain("I'm sorry");
    });
  }

  it('throws SummarizationFailedError with fallback "error", leaving the input untouched', async () => {
    const provider = createMockProvider({ responses: ['no sections here'] });
    const messages = codingHistory(30);
    const snapshot = structuredClone(messages);
    const failure = createSummarization({ provider, fallback: 'error' }).compact(inputFor(messages, 0.3));
    await expect(failure).rejects.toSatisfy(
      (error) =>
        SummarizationFailedError.isInstance(error) &&
        error.reason === 'malformed' &&
        error.code === 'core/strategy-failed',
    );
    expect(messages).toEqual(snapshot);
  });

  it('with maxOutputTokens 0 keeps the trail alone: no model call, no provider needed, even with fallback "error"', async () => {
    const messages = codingHistory(30);
    const input = inputFor(messages, 0.3);
    const output = await createSummarization({ maxOutputTokens: 0, fallback: 'error' }).compact(input);
    expectValid(input, output.messages);
    const summary = output.messages.find(isSummary)!;
    expect(textOf(summary)).toContain('## Artifact trail');
    expect(textOf(summary)).toContain('npm test -- --filter case_1 [exit 1]');
    expect(output.details).toMatchObject({ reason: 'no-room' });
    // A choice, not a failure: no fallback is reported (the CLI would warn of one), nor marked on the summary.
    expect(output.details).not.toHaveProperty('fallback');
    expect(compactionMetadataOf(summary)).not.toHaveProperty('fallback');
    const provider = summarizingProvider();
    const registry = createStrategyRegistry({ definitions: [summarizationDefinition as never] });
    const resolved = await registry.resolve(
      { name: 'summarization', options: { maxOutputTokens: 0 } },
      { provider },
    );
    const again = await resolved.compact(inputFor(messages, 0.3));
    expect(textOf(again.messages.find(isSummary)!)).toBe(textOf(summary));
    expect(provider.requests).toHaveLength(0);
  });

  it('uses the digest without calling the LLM when the budget leaves no room for a summary', async () => {
    const provider = summarizingProvider();
    const messages = codingHistory(30);
    const counter = createTokenCounter();
    const head = counter.estimate([messages[0]!, messages[1]!, messages.at(-1)!]);
    const input: CompactionInput = {
      messages,
      counter,
      budget: { limit: head + 140, target: head + 120 },
      trigger: 'auto',
      round: 1,
    };
    const output = await createSummarization({ provider }).compact(input);
    expectValid(input, output.messages);
    expect(provider.requests).toHaveLength(0);
    expect(output.details).toMatchObject({ fallback: 'extractive', reason: 'no-room' });
  });
});

describe('the marker between two model turns', () => {
  it('takes its cost out of the summary, so the result stays at or under every target it can reach', async () => {
    // A pinned assistant message right before a kept assistant turn with reasoning: summarizing the span
    // between them needs a marker, which the room for the summary must pay for.
    const messages: Message[] = [
      { role: 'system', content: [{ type: 'text', text: 'the' }] },
      { role: 'user', content: [{ type: 'text', text: 'the' }] },
      withCompactionMetadata(
        { role: 'assistant', content: [{ type: 'text', text: 'the' }] },
        { pinned: true },
      ),
      { role: 'user', content: [{ type: 'text', text: '<|endoftext|> 3.14 the '.repeat(800) }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'thinking', signature: 'sig-2' },
          { type: 'text', text: 'the' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'the' }] },
    ];
    const counter = createTokenCounter();
    const head = counter.estimate([messages[0]!, messages[1]!, messages[2]!, messages[5]!]);
    const strategy = createSummarization({ provider: summarizingProvider() });
    let markers = 0;
    for (let target = head + 64; target <= head + 160; target++) {
      const input: CompactionInput = {
        messages,
        counter,
        budget: { limit: target * 2, target },
        trigger: 'auto',
        round: 1,
      };
      const output = await strategy.compact(input);
      expectValid(input, output.messages);
      expect(counter.estimate(output.messages), `target ${target}`).toBeLessThanOrEqual(target);
      markers += output.messages.filter((message) => compactionMetadataOf(message)?.kind === 'marker').length;
    }
    // The case the test is about happened: some results kept the reasoning turn behind a marker.
    expect(markers).toBeGreaterThan(0);
  });
});

describe('the summarizer window', () => {
  it('shortens tool outputs and summarizes a large span in chunks, each request under the window', async () => {
    const window = 3000;
    const maxOutputTokens = 400;
    const provider = summarizingProvider({ limits: { contextWindow: window, maxOutputTokens } });
    const messages = codingHistory(300);
    const input = inputFor(messages, 0.1);
    const output = await createSummarization({
      provider,
      maxOutputTokens,
      toolOutputCharacters: 300,
    }).compact(input);
    expectValid(input, output.messages);
    expect(output.details).not.toHaveProperty('fallback');
    expect(provider.requests.length).toBeGreaterThan(5);
    expect((output.details as { chunks: number }).chunks).toBe(provider.requests.length);
    const counter = createTokenCounter();
    for (const request of provider.requests) {
      expect(counter.estimate(request.messages) + request.maxOutputTokens!).toBeLessThanOrEqual(window);
    }
    // Each chunk after the first folds into the summary of the chunks before it.
    expect(promptOf(provider.requests[1]!)).toContain('progress for goals and constraints.');
    const prompts = provider.requests.map(promptOf).join('\n');
    expect(prompts).toContain('Step 0: working on it.');
    expect(prompts).toContain('Step 250: working on it.');
    expect(prompts).toContain('characters omitted');
  });

  it('falls back when the summarizer window cannot hold even the prompt', async () => {
    const provider = summarizingProvider({ limits: { contextWindow: 600, maxOutputTokens: 400 } });
    const output = await createSummarization({ provider }).compact(inputFor(codingHistory(30), 0.3));
    expect(provider.requests).toHaveLength(0);
    expect(output.details).toMatchObject({ fallback: 'extractive', reason: 'summarizer-window-too-small' });
  });
});

/** Gives every tool call and result a fresh id, so histories stitched from copies stay valid. */
function renumberCalls(messages: Message[], salt: number): Message[] {
  const ids = new Map<string, string>();
  const rename = (id: string, index: number) => {
    if (!ids.has(`${id}@${index}`)) ids.set(`${id}@${index}`, `${id}_${salt}_${index}`);
    return ids.get(`${id}@${index}`)!;
  };
  return messages.map((message, index) => {
    if (message.role === 'assistant' && message.content.some((part) => part.type === 'tool-call')) {
      return {
        ...message,
        content: message.content.map((part) =>
          part.type === 'tool-call' ? { ...part, toolCallId: rename(part.toolCallId, index) } : part,
        ),
      };
    }
    if (message.role === 'tool') {
      return {
        ...message,
        content: message.content.map((part) => ({ ...part, toolCallId: rename(part.toolCallId, index - 1) })),
      };
    }
    return message;
  });
}

describe('a misbehaving provider', () => {
  it('gets the fallback, not a crash, when modelLimits throws or generate returns no text', async () => {
    const throwing = {
      ...summarizingProvider(),
      modelLimits: () => {
        throw new Error('unknown model');
      },
    };
    const broken = createMockProvider({ responses: [() => ({}) as never] });
    for (const [provider, reason] of [
      [throwing, 'provider-error'],
      [broken, 'malformed'],
    ] as const) {
      const output = await createSummarization({ provider }).compact(inputFor(codingHistory(30), 0.3));
      expect(output.details).toMatchObject({ fallback: 'extractive', reason });
    }
  });
});

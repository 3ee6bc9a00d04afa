import {
  type CompactionStrategy,
  compactionMetadataOf,
  createCompactor,
  type Message,
  textOf,
} from '@compaction/core';
import { isSummary } from '@compaction/strategy-kit';
import { createMockProvider } from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import { visibleText } from './__fixtures__/artifacts-of-span.js';
import { summarizingProvider } from './__fixtures__/summaries.js';
import { createSummarization } from './create-summarization.js';

/** One step of an agent: a shell call and its result, with ids unique across the session. */
function step(index: number): Message[] {
  const toolCallId = `call_${index}`;
  return [
    {
      role: 'assistant',
      content: [
        { type: 'text', text: `Checking part ${index}.` },
        { type: 'tool-call', toolCallId, toolName: 'bash', input: { command: `cat src/part_${index}.py` } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId,
          toolName: 'bash',
          output: `def part_${index}():\n${'    pass\n'.repeat(60)}`,
        },
      ],
    },
  ];
}

describe('with the Compactor, over many rounds', () => {
  // At 12,000 tokens the whole trail fits; at 9,000 the older commands must be folded (their files stay).
  it.each([
    { contextWindow: 12_000, folds: false },
    { contextWindow: 9_000, folds: true },
  ])(
    'merges one summary round after round, keeps every file and accounts for every command (window $contextWindow)',
    async ({ contextWindow, folds }) => {
      const provider = summarizingProvider();
      const compactor = createCompactor({
        strategy: createSummarization({ provider }),
        budget: { contextWindow, reservedOutputTokens: 1000 },
      });
      let history: Message[] = [
        { role: 'system', content: [{ type: 'text', text: 'You are a coding agent.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Read every part and report the longest one.' }] },
      ];
      let rounds = 0;
      for (let index = 0; index < 400; index++) {
        history = [...history, ...step(index)];
        const prepared = await compactor.prepare(history);
        if (prepared.compacted) rounds++;
        history = prepared.messages;
      }
      // Many rounds: how many depends on how each step is estimated, not on what is checked below.
      expect(rounds).toBeGreaterThanOrEqual(8);
      const summaries = history.filter(isSummary);
      expect(summaries).toHaveLength(1);
      const marks = compactionMetadataOf(summaries[0]!)!;
      expect(marks.round).toBe(rounds);
      // Every file survives all rounds; older commands are folded into a count, never silently lost.
      const text = visibleText(history);
      for (let index = 0; index < 400; index++) expect(text).toContain(`src/part_${index}.py`);
      const trail = marks.artifactTrail as { commands: { command: string }[]; folded: { commands: number } };
      const verbatimSteps = history.filter((message) => message.role === 'tool').length;
      expect(trail.commands.length + trail.folded.commands).toBe(400 - verbatimSteps);
      for (const command of trail.commands) expect(text).toContain(command.command);
      expect(trail.folded.commands > 0).toBe(folds);
      if (folds) expect(text).toContain(`Oldest detail folded: ${trail.folded.commands} command`);
      expect(history[0]!.role).toBe('system');
      expect(textOf(history[2]!)).toBe('Read every part and report the longest one.');
    },
  );
});

describe('with the Compactor, when the summarizer fails', () => {
  const history: Message[] = [
    { role: 'system', content: [{ type: 'text', text: 'You are a coding agent.' }] },
    { role: 'user', content: [{ type: 'text', text: 'Read every part and report the longest one.' }] },
    ...Array.from({ length: 40 }, (_, index) => step(index)).flat(),
    { role: 'user', content: [{ type: 'text', text: 'Which part is longest?' }] },
  ];
  const budget = { contextWindow: 6_000, reservedOutputTokens: 0 };
  const failing = () => createMockProvider({ responses: [new Error('529 overloaded')] });

  it("shows the strategy's own fallback, the extractive digest, in the event's details", async () => {
    const compactor = createCompactor({ strategy: createSummarization({ provider: failing() }), budget });
    const result = await compactor.compact(history);
    expect(result.failures).toEqual([]);
    expect(result.event).toMatchObject({
      usedFallback: false,
      details: { summarized: true, fallback: 'extractive', reason: 'provider-error' },
    });
    expect(result.event!.details!.failure).toContain('529 overloaded');
  });

  it("reports the summarizer's failure, typed, when the Compactor's fallback produced the result", async () => {
    const keepNewest: CompactionStrategy = {
      specificationVersion: 'v1',
      name: 'keep-newest',
      compact: async ({ messages }) => ({ messages: [...messages.slice(0, 2), ...messages.slice(-3)] }),
    };
    const compactor = createCompactor({
      strategy: createSummarization({ provider: failing(), fallback: 'error' }),
      fallback: keepNewest,
      budget,
    });
    const result = await compactor.compact(history);
    expect(result.event).toMatchObject({ strategy: 'keep-newest', usedFallback: true });
    expect(result.failures).toEqual([
      {
        strategy: 'summarization',
        code: 'core/strategy-failed',
        error: 'Summarization failed (provider-error): 529 overloaded',
      },
    ]);
  });
});

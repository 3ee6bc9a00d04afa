import {
  BudgetUnreachableError,
  createTokenCounter,
  latestUserMessageIndex,
  type Message,
  type TokenCounter,
  verifyCompaction,
} from '@compaction/core';
import { firstUserMessageIndex } from '@compaction/strategy-kit';
import { createMockProvider } from '@compaction/testing';
import {
  codingSources,
  loadTranscripts,
  missingTranscriptsMessage,
  transcriptsDirectory,
} from '@compaction/testing/transcripts';
import { describe, expect, it } from 'vitest';
import { artifactsOfSpan, checkedCommandCharacters, visibleText } from './__fixtures__/artifacts-of-span.js';
import { wellFormedSummary } from './__fixtures__/summaries.js';
import { createSummarization } from './create-summarization.js';

const directory = transcriptsDirectory();
if (directory === undefined) {
  console.warn(`strategy-summarization: transcript tests skipped (${missingTranscriptsMessage})`);
}

/** What every strategy must keep verbatim: no compaction can go below it. */
function verbatimTokens(messages: readonly Message[], counter: TokenCounter): number {
  const indexes = new Set([firstUserMessageIndex(messages), latestUserMessageIndex(messages)]);
  return counter.estimate(
    messages.filter((message, index) => message.role === 'system' || indexes.has(index)),
  );
}

const percent = (part: number, whole: number) =>
  whole === 0 ? 'none to keep' : `${((100 * part) / whole).toFixed(1)}%`;

describe.skipIf(directory === undefined)('on the real coding transcripts', () => {
  const transcripts = directory === undefined ? [] : loadTranscripts({ sources: codingSources });
  const cases = transcripts.flatMap((transcript) =>
    [0.1, 0.25].map((share) => ({ name: `${transcript.name} at ${share * 100}%`, transcript, share })),
  );

  it.each(cases)(
    `$name: file paths and commands (first line, up to ${checkedCommandCharacters} characters) of the evicted span survive, within the target`,
    async ({ transcript, share }) => {
      const counter = createTokenCounter();
      const messages = transcript.messages;
      const target = Math.floor(counter.estimate(messages) * share);
      const provider = createMockProvider({
        responses: Array.from({ length: 50 }, () => wellFormedSummary()),
      });
      const strategy = createSummarization({ provider });
      const input = {
        messages,
        counter,
        budget: { limit: target, target },
        trigger: 'auto' as const,
        round: 1,
      };

      const verbatim = verbatimTokens(messages, counter);
      if (verbatim > target) {
        // Unreachable by the rules, not a retention failure: the system prompt, the task and the newest
        // request must stay verbatim, and they alone are over the target. The strategy throws a typed
        // error and the caller keeps its history; nothing is lost.
        await expect(strategy.compact(input)).rejects.toSatisfy(BudgetUnreachableError.isInstance);
        console.info(
          `${transcript.name} at ${share * 100}%: unreachable by the rules (BudgetUnreachableError): the ` +
            `verbatim system prompt, task and newest request alone take ${verbatim} tokens, over the target of ${target}`,
        );
        return;
      }
      const output = await strategy.compact(input);
      const tokens = counter.estimate(output.messages);
      expect(tokens).toBeLessThanOrEqual(target);
      expect(verifyCompaction({ before: messages, after: output.messages, counter, limit: target })).toEqual(
        [],
      );

      const kept = new Set(output.messages);
      const { paths, commands } = artifactsOfSpan(messages.filter((message) => !kept.has(message)));
      const text = visibleText(output.messages);
      const lostPaths = [...paths].filter((path) => !text.includes(path));
      const lostCommands = [...commands].filter((command) => !text.includes(command));
      const folded = (output.details as { trail: { folded: { files: number; commands: number } } }).trail
        .folded;
      console.info(
        `${transcript.name} at ${share * 100}%: ${tokens}/${target} tokens (${verbatim} verbatim); ` +
          `file paths kept ${paths.size - lostPaths.length}/${paths.size} (${percent(paths.size - lostPaths.length, paths.size)}), ` +
          `commands kept ${commands.size - lostCommands.length}/${commands.size} ` +
          `(${percent(commands.size - lostCommands.length, commands.size)})`,
      );
      if (folded.files + folded.commands === 0) {
        expect(lostPaths).toEqual([]);
        expect(lostCommands).toEqual([]);
      } else {
        // Detail is folded only when the target is really full, and what is missing is what was folded.
        expect(tokens).toBeGreaterThanOrEqual(target * 0.9);
        expect(lostPaths.length).toBeLessThanOrEqual(folded.files);
        expect(lostCommands.length).toBeLessThanOrEqual(folded.commands);
      }
    },
  );

  it.skipIf(transcripts.length === 0)('keeps everything on the largest transcript at 10%', async () => {
    const largest = [...transcripts].sort((left, right) => right.messages.length - left.messages.length)[0]!;
    const counter = createTokenCounter();
    const target = Math.floor(counter.estimate(largest.messages) * 0.1);
    const provider = createMockProvider({ responses: [wellFormedSummary()] });
    const output = await createSummarization({ provider }).compact({
      messages: largest.messages,
      counter,
      budget: { limit: target, target },
      trigger: 'auto',
      round: 1,
    });
    const kept = new Set(output.messages);
    const { paths, commands } = artifactsOfSpan(largest.messages.filter((message) => !kept.has(message)));
    expect(commands.size).toBeGreaterThan(50);
    const text = visibleText(output.messages);
    expect([...paths, ...commands].filter((item) => !text.includes(item))).toEqual([]);
  });
});

import {
  compactionMetadataOf,
  createTokenCounter,
  type GenerateRequest,
  type Message,
  type TokenCounter,
  verifyCompaction,
} from '@compaction/core';
import { isSummary } from '@compaction/strategy-kit';
import { createMockProvider } from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import { artifactsOfSpan, visibleText } from './__fixtures__/artifacts-of-span.js';
import { codingHistory, wellFormedSummary } from './__fixtures__/summaries.js';
import { createSummarization } from './create-summarization.js';
import { extractArtifacts } from './extract-artifacts.js';
import { renderArtifactTrail } from './render-artifact-trail.js';

/** A coding history whose task is long, so the verbatim head takes most of a small target. */
function longTaskHistory(steps: number): Message[] {
  const messages = codingHistory(steps);
  const details = Array.from(
    { length: 120 },
    (_, index) => `Constraint ${index}: keep the public parse() signature and its error messages unchanged.`,
  );
  messages[1] = {
    role: 'user',
    content: [{ type: 'text', text: `Fix the failing date parser.\n${details.join('\n')}` }],
  };
  return messages;
}

/** A target with room for the verbatim head, the whole trail and `extra` tokens, and nothing more. */
function tightTarget(messages: Message[], counter: TokenCounter, extra: number) {
  const head = counter.estimate([messages[0]!, messages[1]!, messages.at(-1)!]);
  const trail = renderArtifactTrail(extractArtifacts(messages.slice(2, -1), { commandCharacters: 200 }));
  const trailTokens = counter.estimator.countText(trail);
  // The summary message's header and framing take about 40 tokens.
  return { target: head + trailTokens + 40 + extra, afterTrail: 40 + extra };
}

function expectEveryArtifactKept(before: Message[], after: Message[]): void {
  const kept = new Set(after);
  const { paths, commands } = artifactsOfSpan(before.filter((message) => !kept.has(message)));
  expect(paths.size + commands.size).toBeGreaterThan(10);
  const text = visibleText(after);
  expect([...paths, ...commands].filter((item) => !text.includes(item))).toEqual([]);
}

describe('when the room after the verbatim parts is small', () => {
  it('keeps the whole trail: recent turns, the minimum ones included, yield to it', async () => {
    const counter = createTokenCounter();
    const messages = longTaskHistory(24);
    const { target } = tightTarget(messages, counter, 10);
    const provider = createMockProvider({ responses: [wellFormedSummary()] });
    const output = await createSummarization({ provider, minimumRecentTurns: 2 }).compact({
      messages,
      counter,
      budget: { limit: target, target },
      trigger: 'auto',
      round: 1,
    });

    expect(counter.estimate(output.messages)).toBeLessThanOrEqual(target);
    expect(verifyCompaction({ before: messages, after: output.messages, counter, limit: target })).toEqual(
      [],
    );
    expect(output.details).toMatchObject({
      keptRecentTurns: 0,
      trail: { folded: { files: 0, commands: 0 } },
    });
    // No room for a summary text worth writing: the LLM is not asked, and no cut-off digest is added.
    expect(provider.requests).toHaveLength(0);
    expect(output.details).toMatchObject({ fallback: 'extractive', reason: 'no-room' });
    expect(output.summary).not.toContain('[...]');
    expectEveryArtifactKept(messages, output.messages);
  });

  it('asks the summarizer for the room the trail leaves and shortens a text that overshoots it', async () => {
    const counter = createTokenCounter();
    const messages = longTaskHistory(24);
    const { target, afterTrail } = tightTarget(messages, counter, 150);
    // An answer a tenth over the limit it was given, as a summarizer with another tokenizer may write.
    const overshooting = (request: GenerateRequest) => {
      const limit = request.maxOutputTokens ?? 0;
      let text = wellFormedSummary();
      while (counter.estimator.countText(text) < limit * 1.1) {
        text = text.replace('## Pending work', 'Checked the parser once more.\n## Pending work');
      }
      return text;
    };
    const provider = createMockProvider({ responses: [overshooting] });
    const output = await createSummarization({ provider }).compact({
      messages,
      counter,
      budget: { limit: target, target },
      trigger: 'auto',
      round: 1,
    });

    expect(provider.requests).toHaveLength(1);
    const limit = provider.requests[0]!.maxOutputTokens!;
    expect(limit).toBeGreaterThanOrEqual(48);
    // At most what the head and the whole trail leave of the target (not `summaryShare` of it).
    expect(limit).toBeLessThanOrEqual(afterTrail);
    expect(output.details).toMatchObject({
      summaryShortened: true,
      trail: { folded: { files: 0, commands: 0 } },
    });
    expect(output.details).not.toHaveProperty('fallback');
    // The beginning and the end of the summary survive the shortening.
    expect(output.summary).toContain('## Goals and constraints');
    expect(output.summary).toContain('## Next step');
    expect(counter.estimate(output.messages)).toBeLessThanOrEqual(target);
    expectEveryArtifactKept(messages, output.messages);
  });

  it('carries the earlier summary in the metadata when there is no room to show it', async () => {
    const counter = createTokenCounter();
    const provider = createMockProvider({ responses: [wellFormedSummary('first round')] });
    const strategy = createSummarization({ provider });
    const messages = longTaskHistory(24);
    const roomy = counter.estimate(messages) - 1500;
    const first = await strategy.compact({
      messages,
      counter,
      budget: { limit: roomy, target: roomy },
      trigger: 'auto',
      round: 1,
    });
    expect(first.details).not.toHaveProperty('fallback');
    const { target } = tightTarget(messages, counter, 10);
    const second = await strategy.compact({
      messages: first.messages,
      counter,
      budget: { limit: target, target },
      trigger: 'auto',
      round: 2,
    });
    expect(second.details).toMatchObject({ fallback: 'extractive', reason: 'no-room' });
    const summary = second.messages.find(isSummary)!;
    expect(compactionMetadataOf(summary)!.summaryText).toContain('first round for goals and constraints.');
    expect(counter.estimate(second.messages)).toBeLessThanOrEqual(target);
    expectEveryArtifactKept(messages, second.messages);
  });
});

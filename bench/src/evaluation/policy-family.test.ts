import { createTokenCounter } from '@compaction/core';
import { generateCodingHistory } from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import { evaluatePolicy } from './evaluate-policy.js';
import { type FamilyMember, familyPolicy, memberName } from './policy-family.js';

const messages = generateCodingHistory({ messages: 200 });
const window = { label: 'test', contextWindow: Math.ceil(createTokenCounter().count(messages) * 0.5) };
const member: FamilyMember = {
  mode: 'truncate',
  capTokens: 500,
  trigger: 'cache-aware',
  clearTo: 0.2,
  summarizer: 'none',
  recentShare: 0.05,
  placement: 'user-before-task',
};

function run(settings: FamilyMember) {
  return evaluatePolicy({
    transcript: { name: 'generated', messages },
    coding: true,
    probes: [],
    policy: familyPolicy(settings),
    window,
  });
}

describe('familyPolicy', () => {
  it('without the summarizer compacts with no model call; with it, the summarizer is called and billed', async () => {
    const trail = await run(member);
    const summarizing = await run({ ...member, summarizer: 'transcript' });
    expect(trail.compactions).toBeGreaterThan(0);
    expect(trail.simulation.totals.compactionInputTokens).toBe(0);
    expect(summarizing.compactions).toBeGreaterThan(0);
    expect(summarizing.simulation.totals.compactionInputTokens).toBeGreaterThan(0);
  });

  it('asking in the conversation, the summarizer reads the prefix from the cache: its calls cost less for the same compactions', async () => {
    const settings: FamilyMember = { ...member, mode: 'mask', trigger: 'tokens', summarizer: 'transcript' };
    const transcript = await run(settings);
    const continuation = await run({ ...settings, summarizer: 'continuation' });
    const compactionsOf = (row: typeof transcript) =>
      row.simulation.steps.flatMap((step) => step.compaction ?? []);
    // The same trigger and the same (scripted) summary: the same compactions, only the calls differ.
    expect(compactionsOf(continuation).map((compaction) => compaction.tokensAfter)).toEqual(
      compactionsOf(transcript).map((compaction) => compaction.tokensAfter),
    );
    expect(compactionsOf(transcript).every((compaction) => compaction.billed.cacheReadTokens === 0)).toBe(
      true,
    );
    expect(compactionsOf(continuation).some((compaction) => compaction.billed.cacheReadTokens > 0)).toBe(
      true,
    );
    expect(continuation.simulation.totals.compactionCost).toBeLessThan(
      transcript.simulation.totals.compactionCost,
    );
    expect(continuation.billedInputTokens).toBeLessThan(transcript.billedInputTokens);
  });

  it('caps tool results when they arrive, so fewer tokens are written when first sent', async () => {
    const capped = await run(member);
    const uncapped = await run({ ...member, capTokens: undefined });
    expect(capped.firstSentTokens).toBeLessThan(uncapped.firstSentTokens);
  });

  it('with the summary after the task, the call after a compaction reads the system prompt and task from the cache', async () => {
    const before = await run(member);
    const after = await run({ ...member, placement: 'assistant-after-task' });
    const afterCompaction = (row: typeof before) =>
      row.simulation.steps.filter((step) => step.compaction !== undefined).map((step) => step.billed);
    expect(afterCompaction(before).length).toBeGreaterThan(0);
    expect(afterCompaction(after).length).toBeGreaterThan(0);
    // Before the task, the summary is the first message after the system prompt: the cache holds only that.
    const head = after.headTokens;
    expect(afterCompaction(after).every((billed) => billed.cacheReadTokens >= head)).toBe(true);
    expect(afterCompaction(before).every((billed) => billed.cacheReadTokens < head)).toBe(true);
    expect(after.billedInputTokens).toBeLessThan(before.billedInputTokens);
  });

  it('is named by its settings', () => {
    expect(memberName(member)).toBe(
      'truncate → artifact trail, cache-aware, caps 500, clear to 0.2 of the limit, recentShare 0.05',
    );
    expect(memberName({ ...member, summarizer: 'transcript', clearTo: 4000, capTokens: undefined })).toBe(
      'truncate → summarization*, cache-aware, no caps, clear to 4,000 tokens, recentShare 0.05',
    );
    expect(memberName({ ...member, placement: 'assistant-after-task' })).toBe(
      'truncate → artifact trail, cache-aware, caps 500, clear to 0.2 of the limit, recentShare 0.05, summary after the task',
    );
  });
});

import { compactionMetadataOf, createTokenCounter, type Message, textOf } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { emptyArtifactTrail } from './artifact-trail.js';
import { assembleSummary, fitTrail } from './assemble-summary.js';
import { english } from './languages/english.js';
import type { SummaryPlan } from './plan-summary.js';

const text = (role: 'user' | 'assistant' | 'system', value: string): Message =>
  ({ role, content: [{ type: 'text', text: value }] }) as Message;

const system = text('system', 'You are a coding agent.');
const task = text('user', 'Fix the parser.');
const recent = text('assistant', 'The parser is fixed.');
const request = text('user', 'Now update the changelog.');

function planOf(kept: readonly Message[], indexes: readonly number[]): SummaryPlan {
  return {
    round: 2,
    language: english,
    kept: kept.map((message, position) => ({ index: indexes[position]!, message })),
    evicted: [text('assistant', 'old work')],
    previous: { text: undefined, trail: emptyArtifactTrail(), round: 0, summarizedMessages: 0 },
    mergedSummaries: 0,
    trail: emptyArtifactTrail(),
    summarizedMessages: 3,
    task,
    latestRequest: request,
    positions: { taskIndex: 1, spanStart: 2, startsWithUser: true },
    summaryRoom: 500,
    trailTokens: 50,
    summaryTokens: 200,
    keptRecentTurns: 1,
    shortenedTurn: false,
  };
}

describe('assembleSummary', () => {
  const plan = planOf([system, task, recent, request], [0, 1, 5, 6]);
  const counter = createTokenCounter();
  const body = {
    text: 'The work so far.',
    trail: fitTrail(plan, 10, (value) => counter.estimator.countText(value)),
    fallback: false,
    carriedText: 'The work so far.',
  };

  it('puts a user summary right before the original task, keeping every kept message as it was', () => {
    const before = structuredClone(plan);
    const assembled = assembleSummary(plan, body, 'user-before-task', counter);
    expect(assembled.role).toBe('user');
    expect(assembled.messages).toEqual([system, assembled.summary, task, recent, request]);
    for (const message of [system, task, recent, request]) expect(assembled.messages).toContain(message);
    expect(textOf(assembled.summary)).toContain('[Summary of 3 earlier messages, compaction round 2;');
    expect(textOf(assembled.summary)).toContain('The work so far.');
    expect(compactionMetadataOf(assembled.summary)).toMatchObject({
      kind: 'summary',
      round: 2,
      summaryText: 'The work so far.',
      summarizedMessages: 3,
    });
    expect(assembled.tokens).toBe(counter.estimate(assembled.messages));
    expect(plan).toEqual(before);
  });

  it('puts an assistant summary where the summarized span began, and marks a fallback digest', () => {
    const assembled = assembleSummary(plan, { ...body, fallback: true }, 'assistant-after-task', counter);
    expect(assembled.role).toBe('assistant');
    expect(assembled.messages).toEqual([system, task, assembled.summary, recent, request]);
    expect(compactionMetadataOf(assembled.summary)).toMatchObject({ fallback: 'extractive' });
  });

  it('builds the same history from the same plan', () => {
    const first = assembleSummary(plan, body, 'assistant-after-task', counter);
    const second = assembleSummary(plan, body, 'assistant-after-task', counter);
    expect(second.messages).toEqual(first.messages);
    expect(second.tokens).toBe(first.tokens);
  });
});

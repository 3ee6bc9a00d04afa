import type { CompactionEvent } from '@compaction/core';
import { expect } from 'vitest';
import type { ScriptedExchange } from './scripted-agent.js';

/** A scripted agent run of a provider conversation; see {@link expectCompactionSchedule}. */
export interface CompactionScheduleRun {
  /** What the scripted server saw (`scriptAgentAnswers`). */
  exchanges: readonly ScriptedExchange[];
  /** The conversation's `compaction` events. */
  compactions: ReadonlyArray<{ step: number; event: CompactionEvent }>;
  /** The conversation's `request` events; when given, only the overflow step may have a second attempt. */
  requests?: ReadonlyArray<{ step: number; attempt: number }>;
  /** The compactor's budget. */
  budget: { trigger: number | null; target: number };
  /** The script's `toolSteps`: the run answered `toolSteps + 1` times. */
  toolSteps: number;
  /** The answer whose first attempt the script refused as too long (its `overflowAt`), if any. */
  overflowStep?: number;
  /** Automatic compactions the run must have made at least. Default 1. */
  minimumAutoCompactions?: number;
}

/**
 * Asserts that a provider conversation compacted a scripted tool loop at the right steps: every automatic
 * compaction crossed the trigger, got to the target and made the next request smaller than the one before;
 * without a compaction, requests grew and stayed under the trigger (the count is anchored on the reported
 * usage, so it matches the server's); the refused answer was compacted with the `overflow` trigger once and
 * retried smaller, once. Returns the answered exchanges, one per step.
 */
export function expectCompactionSchedule(run: CompactionScheduleRun): ScriptedExchange[] {
  const { exchanges, compactions, budget, toolSteps, overflowStep } = run;
  const trigger = budget.trigger ?? Number.POSITIVE_INFINITY;
  const answered = exchanges.filter((exchange) => !exchange.overflowed);
  expect(answered).toHaveLength(toolSteps + 1);
  expect(exchanges).toHaveLength(toolSteps + 1 + (overflowStep === undefined ? 0 : 1));

  const auto = compactions.filter(({ event }) => event.trigger === 'auto');
  expect(auto.length).toBeGreaterThanOrEqual(run.minimumAutoCompactions ?? 1);
  const compactedSteps = new Set(auto.map(({ step }) => step));
  const sentAt = (step: number): ScriptedExchange => answered[step - 1]!;
  for (const { step, event } of auto) {
    expect(event.tokensBefore).toBeGreaterThan(trigger);
    expect(event.tokensAfter).toBeLessThanOrEqual(budget.target);
    const firstAttempt = exchanges.find((exchange) => exchange.answer === step)!;
    // The request after a compaction is back under the trigger. It may count more than the step before it:
    // one large result can lift a history from under the target to over the trigger, and compaction now
    // fills the target rather than cutting far below it.
    expect(firstAttempt.inputTokens).toBeLessThan(trigger);
  }
  for (let step = 2; step <= toolSteps + 1; step++) {
    if (compactedSteps.has(step) || step === overflowStep) continue;
    expect(sentAt(step).inputTokens).toBeGreaterThan(sentAt(step - 1).inputTokens);
    expect(sentAt(step).inputTokens).toBeLessThanOrEqual(trigger * 1.02);
  }

  const overflowCompactions = compactions.filter(({ event }) => event.trigger === 'overflow');
  expect(overflowCompactions.map(({ step }) => step)).toEqual(
    overflowStep === undefined ? [] : [overflowStep],
  );
  if (overflowStep !== undefined) {
    const [refused, retried] = exchanges.filter((exchange) => exchange.answer === overflowStep);
    expect(refused!.overflowed).toBe(true);
    expect(retried!.overflowed).toBe(false);
    expect(retried!.inputTokens).toBeLessThan(refused!.inputTokens);
  }
  if (run.requests !== undefined) {
    const retries = run.requests.filter(({ attempt }) => attempt === 2).map(({ step }) => step);
    expect(retries).toEqual(overflowStep === undefined ? [] : [overflowStep]);
  }
  return answered;
}

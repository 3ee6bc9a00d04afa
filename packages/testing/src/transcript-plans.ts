import {
  CompactionError,
  type CompactionStrategy,
  compactionMetadataOf,
  createTokenCounter,
  type Message,
  openingIndexes,
  verifyCompaction,
} from '@compaction/core';
import { findPlanState, pinPlanState } from '@compaction/core/working-state';
import { expect, it } from 'vitest';
import { latestPlanProblem, planCallShape } from './conformance-plan.js';
import type { FloorOf } from './protected-tokens.js';
import { requiredTokens, targetShares } from './transcript-targets.js';
import {
  codingSources,
  loadTranscripts,
  missingTranscriptsMessage,
  transcriptsDirectory,
} from './transcripts/index.js';

/**
 * `messages` with two of Claude Code's `TodoWrite` turns added, when the history has no plan call of its own:
 * a first plan after the opening, and a longer one, the latest, in the middle, each a call and its result
 * standing at a turn boundary (never inside a turn, nor before a message joined to the one before it).
 *
 * `TodoWrite` is Claude Code's own plan tool. The other agents of the shared coding transcripts have none
 * that `defaultPlanTools` names (mini-swe-agent runs bash only; SWE-agent and OpenHands, in these runs, their
 * file, search and shell tools), so their histories take the same `TodoWrite` turns.
 */
export function withPlanTurns(messages: readonly Message[]): Message[] {
  if (findPlanState(messages).length > 0) return [...messages];
  const from = Math.max(-1, ...openingIndexes(messages)) + 1;
  const boundaries: number[] = [];
  for (let index = Math.max(1, from); index <= messages.length; index++) {
    const next = messages[index];
    if (next?.role !== 'tool' && compactionMetadataOf(next ?? messages[0]!)?.joinsPrevious !== true) {
      boundaries.push(index);
    }
  }
  const first = boundaries[0] ?? messages.length;
  const middle = boundaries[Math.floor(boundaries.length / 2)] ?? first;
  const turn = (id: string, steps: string[]): Message[] => {
    const { input, output } = planCallShape('TodoWrite', steps);
    return [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'TodoWrite', input }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'TodoWrite', output }] },
    ];
  };
  const steps = ['Read the task', 'Find the code involved', 'Make the change', 'Check the result'];
  return [
    ...messages.slice(0, first),
    ...turn('plan_first', steps.slice(0, 2)),
    ...messages.slice(first, middle),
    ...turn('plan_latest', steps),
    ...messages.slice(middle),
  ];
}

/** What {@link checkTranscriptPlans} found. */
export interface TranscriptPlansOutcome {
  /** Transcripts read (none when the shared folder is absent). */
  transcripts: number;
  /** Compactions that returned a history, whose plan was checked. */
  compacted: number;
  /** What broke, one line per transcript and share. */
  problems: string[];
}

/**
 * Compacts every shared coding transcript (`codingSources`: the SWE-bench runs of mini-swe-agent, SWE-agent
 * and OpenHands, and the Claude Code sessions; their own plan calls, or `TodoWrite` turns added by
 * {@link withPlanTurns} where they have none), pinned as the Compactor pins them, to targets of 50%, 25% and
 * 10% of each one's size (the whole history as the limit): the result must keep the latest plan call and its
 * result verbatim and every rule; the strategy may give up (a `BudgetUnreachableError`) only when what it may
 * not remove (`floor`, default {@link requiredTokens}) is over the target.
 */
export async function checkTranscriptPlans(
  strategy: CompactionStrategy,
  settings: { floor?: FloorOf } = {},
): Promise<TranscriptPlansOutcome> {
  const floor = settings.floor ?? requiredTokens;
  const transcripts = loadTranscripts({ sources: codingSources });
  const outcome: TranscriptPlansOutcome = { transcripts: transcripts.length, compacted: 0, problems: [] };
  for (const transcript of transcripts) {
    const messages = pinPlanState(withPlanTurns(transcript.messages));
    const counter = createTokenCounter();
    const total = counter.estimate(messages);
    for (const share of targetShares) {
      const target = Math.floor(total * share);
      // The whole history fits the limit: a strategy that cannot reach the target returns its best.
      const budget = { limit: total, target };
      const context = `${transcript.name} at ${share}`;
      try {
        const output = await strategy.compact({ messages, counter, budget, trigger: 'auto', round: 1 });
        outcome.compacted++;
        const violations = verifyCompaction({
          before: messages,
          after: output.messages,
          counter,
          limit: total,
        });
        const problem =
          latestPlanProblem(messages, output.messages) ??
          (violations.length > 0
            ? `broke ${violations.map((violation) => violation.rule).join(', ')}`
            : undefined);
        if (problem !== undefined) outcome.problems.push(`${context}: ${problem}`);
      } catch (error) {
        if (!CompactionError.isInstance(error) || error.code !== 'core/budget-unreachable') throw error;
        if (floor(messages, counter) <= target)
          outcome.problems.push(`${context}: gave up: ${error.message}`);
      }
    }
  }
  return outcome;
}

/** Registers `checkTranscriptPlans` as one Vitest test, or a skipped one naming the missing folder. */
export function describeTranscriptPlans(
  name: string,
  strategy: CompactionStrategy,
  settings: { floor?: FloorOf } = {},
): void {
  if (transcriptsDirectory() === undefined) {
    it.skip(`${name} keeps the plan of the real transcripts: ${missingTranscriptsMessage}`, () => {});
    return;
  }
  it(`${name} keeps the latest plan of the real coding transcripts at 50%, 25% and 10%`, async () => {
    const outcome = await checkTranscriptPlans(strategy, settings);
    expect(outcome.problems).toEqual([]);
    expect(outcome.compacted).toBeGreaterThan(0);
  });
}

import { findPlanState } from '@compaction/core/working-state';
import { describe, expect, it } from 'vitest';
import { brokenStrategies } from './__fixtures__/broken-strategies.js';
import { dropOldestTurns } from './__fixtures__/drop-oldest-turns.js';
import { checkTranscriptPlans, withPlanTurns } from './transcript-plans.js';
import {
  codingSources,
  loadTranscripts,
  missingTranscriptsMessage,
  transcriptsDirectory,
} from './transcripts/index.js';

const present = transcriptsDirectory() !== undefined;

describe('withPlanTurns', () => {
  const history = [
    { role: 'user' as const, content: [{ type: 'text' as const, text: 'Fix the build.' }] },
    { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'Looking.' }] },
    { role: 'user' as const, content: [{ type: 'text' as const, text: 'Go on.' }] },
    { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'Done.' }] },
  ];

  it('adds a first plan after the opening and the latest one in the middle, at turn boundaries', () => {
    const planned = withPlanTurns(history);
    expect(planned.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(findPlanState(planned)).toEqual([5, 6]);
    expect(history).toHaveLength(4);
  });

  it('leaves a history with a plan of its own as it is', () => {
    const planned = withPlanTurns(history);
    const again = withPlanTurns(planned);
    expect(again).toEqual(planned);
    for (const [index, message] of again.entries()) expect(message).toBe(planned[index]);
  });
});

describe.runIf(present)('checkTranscriptPlans on the real coding transcripts', () => {
  it('passes a strategy that keeps pinned messages, and catches one that drops the plan', async () => {
    const kept = await checkTranscriptPlans(dropOldestTurns());
    expect(kept.problems).toEqual([]);
    expect(kept.compacted).toBeGreaterThan(0);
    const dropped = await checkTranscriptPlans(brokenStrategies['ignores-plan-pins']);
    expect(dropped.problems.join('\n')).toMatch(/dropped or changed the latest plan/);
  });

  it('runs on every coding source: the SWE-bench agents with TodoWrite turns added, and Claude Code', async () => {
    const transcripts = loadTranscripts({ sources: codingSources });
    const outcome = await checkTranscriptPlans(brokenStrategies['ignores-plan-pins']);
    expect(outcome.transcripts).toBe(transcripts.length);
    // The plan each source's history gets is found and checked: dropping it is caught in every source.
    const caught = new Set(outcome.problems.map((problem) => problem.slice(0, problem.indexOf('/'))));
    expect(caught).toEqual(new Set(codingSources));
  });
});
if (!present) it.skip(`checkTranscriptPlans: ${missingTranscriptsMessage}`, () => {});

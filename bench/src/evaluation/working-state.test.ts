import { loadTranscripts, transcriptsDirectory } from '@compaction/testing/transcripts';
import { describe, expect, it } from 'vitest';
import { codingSession } from './__fixtures__/messages.js';
import { fileStateProbes, measureFileStateRetention } from './file-state-probe.js';
import { withPlanCalls } from './plan-calls.js';
import { latestPlan, measurePlanRetention } from './plan-probe.js';
import { basePolicies } from './policies.js';
import { translatedTranscript } from './working-state.js';
import { replayCompactions } from './working-state-replay.js';

const pruning = basePolicies.find((policy) => policy.id === 'pruning')!;

describe('replayCompactions', () => {
  const { messages } = withPlanCalls(codingSession(40, 1200));

  it('keeps the latest plan at every compaction when the Compactor pins it, and loses it with `planTools: false`', async () => {
    const score = async (planTools?: false) => {
      const points = await replayCompactions({
        messages,
        policy: pruning,
        contextWindow: 8000,
        ...(planTools === undefined ? {} : { planTools }),
      });
      expect(points.length).toBeGreaterThan(1);
      return points.map(
        (point) =>
          measurePlanRetention(latestPlan(messages.slice(0, point.messageIndex)), point.context).kept,
      );
    };
    const pinned = await score();
    expect(pinned.every((kept) => kept === 5)).toBe(true);
    const unpinned = await score(false);
    expect(unpinned.some((kept) => kept < 5)).toBe(true);
  });
});

const directory = transcriptsDirectory();

describe.skipIf(directory === undefined)(`the working-state probes on ${translatedTranscript}`, () => {
  const transcript = loadTranscripts({ sources: ['mini-swe-agent'] }).find(
    (candidate) => candidate.name === translatedTranscript,
  )!;
  const { messages } = withPlanCalls(transcript.messages);
  const slice = messages.slice(0, 120);

  it('scores the uncompacted slice as whole, and the task alone as empty', () => {
    const plan = latestPlan(slice);
    const files = fileStateProbes(slice);
    expect(plan.length).toBeGreaterThan(0);
    expect(files.length).toBeGreaterThan(2);
    expect(measurePlanRetention(plan, slice).kept).toBe(plan.length);
    expect(measureFileStateRetention(files, slice).kept).toBe(files.length);
    const taskOnly = slice.slice(0, 2);
    expect(measurePlanRetention(plan, taskOnly).kept).toBe(0);
    expect(measureFileStateRetention(files, taskOnly).kept).toBe(0);
  });
});

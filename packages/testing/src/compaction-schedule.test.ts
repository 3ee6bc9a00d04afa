import type { CompactionEvent } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { type CompactionScheduleRun, expectCompactionSchedule } from './compaction-schedule.js';
import type { ScriptedExchange } from './scripted-agent.js';

const exchange = (answer: number, inputTokens: number, overflowed = false): ScriptedExchange => ({
  request: { method: 'POST', path: '/', headers: {}, body: undefined, rawBody: '', receivedAt: 0 },
  answer,
  overflowed,
  inputTokens,
});
const compaction = (
  step: number,
  trigger: 'auto' | 'overflow',
  tokensBefore: number,
  tokensAfter: number,
) => ({
  step,
  event: { trigger, tokensBefore, tokensAfter } as CompactionEvent,
});

/** Four steps: growing requests, an automatic compaction at step 3, an overflow refusal at step 4. */
const run: CompactionScheduleRun = {
  exchanges: [exchange(1, 100), exchange(2, 200), exchange(3, 50), exchange(4, 400, true), exchange(4, 90)],
  compactions: [compaction(3, 'auto', 260, 50), compaction(4, 'overflow', 300, 90)],
  requests: [
    { step: 1, attempt: 1 },
    { step: 2, attempt: 1 },
    { step: 3, attempt: 1 },
    { step: 4, attempt: 1 },
    { step: 4, attempt: 2 },
  ],
  budget: { trigger: 250, target: 100 },
  toolSteps: 3,
  overflowStep: 4,
};

describe('expectCompactionSchedule', () => {
  it('accepts a run that compacted at the right steps and returns one exchange per step', () => {
    expect(expectCompactionSchedule(run).map(({ answer }) => answer)).toEqual([1, 2, 3, 4]);
  });

  it('rejects a compaction that did not reach the target', () => {
    const missed = { ...run, compactions: [compaction(3, 'auto', 260, 150), run.compactions[1]!] };
    expect(() => expectCompactionSchedule(missed)).toThrow();
  });

  it('rejects a request that crossed the trigger without a compaction', () => {
    const exchanges = [...run.exchanges];
    exchanges[1] = exchange(2, 300);
    expect(() => expectCompactionSchedule({ ...run, exchanges })).toThrow();
  });

  it('rejects a retry that is not smaller than the refused attempt, and a missing overflow', () => {
    const exchanges = [...run.exchanges];
    exchanges[4] = exchange(4, 500);
    expect(() => expectCompactionSchedule({ ...run, exchanges })).toThrow();
    expect(() => expectCompactionSchedule({ ...run, compactions: [run.compactions[0]!] })).toThrow();
  });

  it('rejects fewer automatic compactions than required', () => {
    expect(() => expectCompactionSchedule({ ...run, minimumAutoCompactions: 2 })).toThrow();
  });
});

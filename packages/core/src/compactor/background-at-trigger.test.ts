import { describe, expect, it } from 'vitest';
import { actionAtTrigger, type TriggerSituation } from './background-at-trigger.js';

const fits: TriggerSituation = {
  tokens: 900,
  limit: 1000,
  target: 400,
  overheadTokens: 0,
  waitAtTrigger: false,
  appendedTokens: 0,
};
const running = { ended: false, target: 400 };

describe('actionAtTrigger', () => {
  it('sends a history that fits as it is: starting a job when none runs, or while one runs', () => {
    expect(actionAtTrigger(fits)).toBe('start');
    expect(actionAtTrigger({ ...fits, job: running, appendedTokens: 300 })).toBe('pending');
  });

  it('uses a job that ended, whatever the size', () => {
    const ended = { ...running, ended: true };
    expect(actionAtTrigger({ ...fits, job: ended })).toBe('use');
    expect(actionAtTrigger({ ...fits, tokens: 1200, job: ended, appendedTokens: 700 })).toBe('use');
  });

  it('over the limit, waits for a running job only when its result with the turns since will do', () => {
    const over = { ...fits, tokens: 1100, job: running };
    expect(actionAtTrigger({ ...over, appendedTokens: 400 })).toBe('use');
    // The turns since alone over the target: the result would be compacted again, so it is not waited for.
    expect(actionAtTrigger({ ...over, appendedTokens: 401 })).toBe('supersede');
    expect(actionAtTrigger({ ...over, appendedTokens: 350, overheadTokens: 60 })).toBe('supersede');
    expect(actionAtTrigger({ ...over, appendedTokens: 350, job: { ended: false, target: 700 } })).toBe(
      'supersede',
    );
    expect(actionAtTrigger({ ...fits, tokens: 1100 })).toBe('in-line');
  });

  it('blocks at the trigger with waitAtTrigger', () => {
    const waiting = { ...fits, waitAtTrigger: true };
    expect(actionAtTrigger(waiting)).toBe('in-line');
    expect(actionAtTrigger({ ...waiting, job: running, appendedTokens: 500 })).toBe('use');
  });
});

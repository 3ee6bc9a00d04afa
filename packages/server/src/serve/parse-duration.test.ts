import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { parseDuration } from './parse-duration.js';

// Not on the Node 22 compatibility run: parsing durations is plain code, with no module of the runtime (the Node
// 20 run has run it).
describeOnFullRun('parseDuration', () => {
  it('parses durations, a bare number as seconds', () => {
    expect(parseDuration('250ms', '--x')).toBe(250);
    expect(parseDuration('10s', '--x')).toBe(10_000);
    expect(parseDuration('1.5', '--x')).toBe(1500);
    expect(parseDuration('30m', '--x')).toBe(1_800_000);
    expect(parseDuration('2H', '--x')).toBe(7_200_000);
    expect(() => parseDuration('soon', '--session-idle')).toThrow(
      '--session-idle must be a duration such as 500ms, 10s, 5m or 1h, got "soon"',
    );
    expect(() => parseDuration('0s', '--x')).toThrow('--x must be at least 1ms');
  });
});

import { describe, expect, it } from 'vitest';
import { interleavedMedians, median } from './timing.js';

describe('interleavedMedians', () => {
  it('times a contender whose output passes, and refuses one whose output does not', async () => {
    const measured = await interleavedMedians(
      {
        good: { prepare: () => () => 'done', problems: () => [] },
        bad: { prepare: () => () => 'skipped', problems: (output) => [`did nothing: ${String(output)}`] },
      },
      3,
    );
    expect(measured.good).toHaveProperty('milliseconds');
    expect(measured.bad).toEqual({ problems: ['did nothing: skipped'] });
  });

  it('checks the output of the timed runs, not only of the first', async () => {
    let runs = 0;
    const measured = await interleavedMedians(
      {
        late: {
          prepare: () => () => ++runs,
          problems: (output) => (output === runs && runs > 1 ? ['broke'] : []),
        },
      },
      3,
    );
    expect(measured.late).toEqual({ problems: ['broke'] });
  });
});

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

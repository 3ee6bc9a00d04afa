import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitToRoom } from './fit-to-room.js';

describe('fitToRoom', () => {
  it('finds an allowance that fits the room closely, however far off the first guess', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 1_000_000 }),
        fc.double({ min: 0.1, max: 3, noNaN: true }),
        fc.integer({ min: 1, max: 40 }),
        (room, guessShare, step) => {
          // Counts that follow the allowance, but only in steps (as cuts snapping to line breaks do).
          const build = (allowance: number) => {
            const tokens = Math.ceil(allowance / step) * step + 7;
            return { value: allowance, tokens };
          };
          const fitted = fitToRoom(room, room * guessShare, build);
          expect(fitted).toBeDefined();
          expect(fitted!.tokens).toBeLessThanOrEqual(room);
          expect(fitted!.tokens).toBeGreaterThanOrEqual(room - Math.max(room * 0.05, 2 * step + 7));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('returns undefined when nothing it tries fits', () => {
    expect(fitToRoom(10, 5, (allowance) => ({ value: allowance, tokens: 20 + allowance }))).toBeUndefined();
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateRoom } from './allocate-room.js';

const shareArbitrary = fc.double({ min: 0.01, max: 1, noNaN: true });
const inputArbitrary = fc.record({
  target: fc.integer({ min: 100, max: 200_000 }),
  roomShare: fc.double({ min: 0, max: 1, noNaN: true }),
  trailNeeds: fc.integer({ min: 0, max: 100_000 }),
  options: fc.record({
    trailShare: shareArbitrary,
    summaryShare: shareArbitrary,
    recentShare: shareArbitrary,
    maxOutputTokens: fc.integer({ min: 1, max: 8192 }),
  }),
});

describe('allocateRoom', () => {
  it('never hands out more than the room, and never more trail than the trail needs', () => {
    fc.assert(
      fc.property(inputArbitrary, ({ target, roomShare, trailNeeds, options }) => {
        const room = Math.floor(target * roomShare);
        const { trailTokens, summaryTokens } = allocateRoom({ room, target, trailNeeds, options });
        expect(trailTokens).toBeGreaterThanOrEqual(0);
        expect(summaryTokens).toBeGreaterThanOrEqual(0);
        expect(trailTokens + summaryTokens).toBeLessThanOrEqual(room);
        expect(trailTokens).toBeLessThanOrEqual(trailNeeds);
        expect(summaryTokens).toBeLessThanOrEqual(options.maxOutputTokens);
      }),
      { numRuns: 500 },
    );
  });

  it('gives the trail all it needs, up to the whole room, when the room cannot hold every share', () => {
    fc.assert(
      fc.property(inputArbitrary, ({ target, roomShare, trailNeeds, options }) => {
        const room = Math.floor(target * roomShare);
        const summaryCap = Math.min(options.maxOutputTokens, Math.floor(options.summaryShare * target));
        const recentCap = Math.floor(options.recentShare * target);
        const allocation = allocateRoom({ room, target, trailNeeds, options });
        // Tight: the trail is not held to its share, and the summary text only gets what the trail leaves.
        if (room <= Math.floor(options.trailShare * target) || room - summaryCap - recentCap >= trailNeeds) {
          expect(allocation.trailTokens).toBe(Math.min(trailNeeds, room));
        }
        expect(allocation.summaryTokens).toBe(Math.min(summaryCap, room - allocation.trailTokens));
      }),
      { numRuns: 500 },
    );
  });

  it('holds a large trail to its share while the summary text and recent turns can use the rest', () => {
    const options = { trailShare: 0.3, summaryShare: 0.25, recentShare: 0.3, maxOutputTokens: 2048 };
    // 900 of a 1,000-token target is free: 250 for the text and 300 for recent turns leave 350 for the trail.
    expect(allocateRoom({ room: 900, target: 1000, trailNeeds: 5000, options })).toEqual({
      trailTokens: 350,
      summaryTokens: 250,
      recentTokens: 300,
    });
    // Only 200 free: the trail takes it all and the summary text gets nothing.
    expect(allocateRoom({ room: 200, target: 1000, trailNeeds: 5000, options })).toMatchObject({
      trailTokens: 200,
      summaryTokens: 0,
    });
    // A small trail takes only what it needs; the text gets its share.
    expect(allocateRoom({ room: 200, target: 1000, trailNeeds: 40, options })).toMatchObject({
      trailTokens: 40,
      summaryTokens: 160,
    });
  });
});

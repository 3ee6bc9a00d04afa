import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { everyInSlices, mapInSlices, utf8InSlices } from './event-loop-slices.js';

/** Where {@link utf8InSlices} cuts the bytes into pieces. */
const pieceBytes = 256 * 1024;

describe('event loop slices', () => {
  it('decode UTF-8 as Buffer#toString does, whatever falls across the cuts between pieces', async () => {
    // Text and stray bytes (cut characters, lone continuation bytes, a byte order mark) around a cut.
    const piece = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 6 }).map((text) => Buffer.from(text, 'utf8')),
      fc.uint8Array({ maxLength: 6 }).map((bytes) => Buffer.from(bytes)),
      fc.constant(Buffer.from([0xef, 0xbb, 0xbf])),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 12 }),
        fc.array(piece, { maxLength: 6 }),
        fc.array(piece, { maxLength: 3 }),
        async (before, around, opening) => {
          const filler = Buffer.alloc(pieceBytes - before, 0x61);
          const bytes = Buffer.concat([...opening, filler, ...around]);
          expect(await utf8InSlices(bytes)).toBe(bytes.toString('utf8'));
        },
      ),
      { numRuns: 30 },
    );
  });

  it('map and test every item in order, as Array#map and Array#every do', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer()), fc.integer(), async (items, limit) => {
        expect(await mapInSlices(items, (item, index) => item * 2 + index)).toEqual(
          items.map((item, index) => item * 2 + index),
        );
        expect(await everyInSlices(items, (item) => item < limit)).toBe(items.every((item) => item < limit));
      }),
    );
  });
});

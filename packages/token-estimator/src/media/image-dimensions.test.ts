import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  gifHeader,
  jpegHeader,
  pngHeader,
  webpExtendedHeader,
  webpLosslessHeader,
  webpLossyHeader,
} from './__fixtures__/media-bytes.js';
import { readImageDimensions } from './image-dimensions.js';

const headers = {
  png: pngHeader,
  gif: gifHeader,
  'webp lossy': webpLossyHeader,
  'webp lossless': webpLosslessHeader,
  'webp extended': webpExtendedHeader,
  jpeg: (width: number, height: number) => jpegHeader(width, height),
};
// Each format's own ceiling: 16 bits in GIF and JPEG, 14 in VP8 and VP8L.
const maxSide = {
  png: 65_535,
  gif: 65_535,
  'webp lossy': 16_383,
  'webp lossless': 16_384,
  'webp extended': 65_535,
  jpeg: 65_535,
};

describe('readImageDimensions', () => {
  for (const [format, header] of Object.entries(headers)) {
    it(`reads the size of a ${format} header`, () => {
      expect(readImageDimensions(header(800, 600))).toEqual({ width: 800, height: 600 });
      const side = fc.integer({ min: 1, max: maxSide[format as keyof typeof maxSide] });
      fc.assert(
        fc.property(side, side, (width, height) => {
          expect(readImageDimensions(header(width, height))).toEqual({ width, height });
        }),
      );
    });

    it(`gives no size for a cut-off ${format} header`, () => {
      const bytes = header(800, 600);
      expect(readImageDimensions(bytes.subarray(0, 8))).toBeUndefined();
    });
  }

  it('skips EXIF segments and Huffman tables to the JPEG frame header', () => {
    expect(readImageDimensions(jpegHeader(4032, 3024, 40_000))).toEqual({ width: 4032, height: 3024 });
  });

  it('gives no size for bytes of no known format', () => {
    expect(
      readImageDimensions(new TextEncoder().encode('<svg width="10" height="10"></svg>')),
    ).toBeUndefined();
    expect(readImageDimensions(new Uint8Array())).toBeUndefined();
  });
});

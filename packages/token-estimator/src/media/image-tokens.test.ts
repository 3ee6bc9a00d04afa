import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  anthropicHighResolutionImageLimit,
  anthropicImageLimit,
  anthropicImageTokens,
  anthropicStandardImageLimit,
} from './anthropic-media-tokens.js';
import type { ImageSize } from './image-dimensions.js';
import { openaiImageTokens, openaiMaxImageTokens } from './openai-media-tokens.js';

const side = fc.integer({ min: 1, max: 12_000 });
const growth = fc.integer({ min: 0, max: 4_000 });

/** Anthropic's steps as the vision page words them: scale down to the limits, then width * height / 750. */
function anthropicDocumented({ width, height }: ImageSize, limit: { longEdge: number; maxTokens: number }) {
  const scale = Math.min(
    1,
    limit.longEdge / Math.max(width, height),
    Math.sqrt((limit.maxTokens * 750) / (width * height)),
  );
  return Math.ceil((Math.floor(width * scale) * Math.floor(height * scale)) / 750);
}

/** OpenAI's patch steps as the vision guide words them (A to D), for a cap of 1,536 patches. */
function openaiPatchesDocumented({ width, height }: ImageSize, multiplier: number) {
  const patches = Math.ceil(width / 32) * Math.ceil(height / 32);
  if (patches <= 1536) return Math.ceil(patches * multiplier);
  const shrink = Math.sqrt((32 * 32 * 1536) / (width * height));
  const widthInPatches = (width * shrink) / 32;
  const fit = Math.floor(widthInPatches) / widthInPatches;
  const resized = Math.ceil((width * shrink * fit) / 32) * Math.ceil((height * shrink * fit) / 32);
  return Math.ceil(Math.min(resized, 1536) * multiplier);
}

describe('anthropicImageTokens', () => {
  const models = ['claude-sonnet-4-5-20250929', 'claude-opus-4-7', undefined];

  it('is width * height / 750 within the limits, as the documented table gives', () => {
    expect(anthropicImageTokens({ width: 200, height: 200 }, 'claude-sonnet-4-5')).toBe(54);
    expect(anthropicImageTokens({ width: 1000, height: 1000 }, 'claude-sonnet-4-5')).toBe(1334);
    expect(anthropicImageTokens({ width: 1092, height: 1092 }, 'claude-3-5-sonnet-20241022')).toBe(1590);
    expect(anthropicImageTokens({ width: 4000, height: 3000 }, 'claude-opus-4-1-20250805')).toBe(1600);
    expect(anthropicImageTokens({ width: 4000, height: 3000 }, 'claude-opus-4-7')).toBe(4784);
  });

  it('gives the larger limit to newer and unknown models', () => {
    expect(anthropicImageLimit('claude-haiku-4-5')).toBe(anthropicStandardImageLimit);
    expect(anthropicImageLimit('claude-opus-4-6')).toBe(anthropicStandardImageLimit);
    expect(anthropicImageLimit('claude-opus-4-20250514')).toBe(anthropicStandardImageLimit);
    expect(anthropicImageLimit('claude-opus-4-7')).toBe(anthropicHighResolutionImageLimit);
    expect(anthropicImageLimit(undefined)).toBe(anthropicHighResolutionImageLimit);
    expect(anthropicImageLimit('claude-next')).toBe(anthropicHighResolutionImageLimit);
  });

  it('grows with width and height and is never below the documented price', () => {
    fc.assert(
      fc.property(
        side,
        side,
        growth,
        growth,
        fc.constantFrom(...models),
        (width, height, wider, taller, model) => {
          const tokens = anthropicImageTokens({ width, height }, model);
          expect(
            anthropicImageTokens({ width: width + wider, height: height + taller }, model),
          ).toBeGreaterThanOrEqual(tokens);
          const limit = anthropicImageLimit(model);
          expect(tokens).toBeGreaterThanOrEqual(anthropicDocumented({ width, height }, limit));
          expect(tokens).toBeLessThanOrEqual(limit.maxTokens);
        },
      ),
    );
  });
});

describe('openaiImageTokens', () => {
  it('gives the documented examples of the tile models', () => {
    expect(openaiImageTokens({ width: 1024, height: 1024 }, 'gpt-4o')).toBe(765);
    expect(openaiImageTokens({ width: 2048, height: 4096 }, 'gpt-4o')).toBe(1105);
    expect(openaiImageTokens({ width: 4096, height: 8192 }, 'gpt-4o', 'low')).toBe(85);
    expect(openaiImageTokens({ width: 1024, height: 1024 }, 'gpt-4o-mini')).toBe(2833 + 4 * 5667);
    expect(openaiImageTokens({ width: 512, height: 512 }, 'o3')).toBe(75 + 150);
    expect(openaiImageTokens({ width: 1024, height: 1024 }, 'gpt-5')).toBe(70 + 4 * 140);
  });

  it('gives the documented examples of the patch models', () => {
    // 1024 x 1024 is 32 x 32 = 1,024 patches; 1800 x 2400 is scaled to 1,452 patches.
    expect(openaiImageTokens({ width: 1024, height: 1024 }, 'gpt-4.1-mini')).toBe(Math.ceil(1024 * 1.62));
    expect(openaiImageTokens({ width: 1800, height: 2400 }, 'gpt-4.1-mini')).toBeGreaterThanOrEqual(
      Math.ceil(1452 * 1.62),
    );
    expect(openaiImageTokens({ width: 1800, height: 2400 }, 'o4-mini')).toBe(Math.ceil(1536 * 1.72));
  });

  it('prices patch models at least as the documented steps do, growing with width and height', () => {
    const patchModels = fc.constantFrom(['gpt-4.1-mini', 1.62], ['gpt-4.1-nano', 2.46], ['o4-mini', 1.72]);
    fc.assert(
      fc.property(
        side,
        side,
        growth,
        growth,
        patchModels,
        (width, height, wider, taller, [model, multiplier]) => {
          const tokens = openaiImageTokens({ width, height }, model as string);
          expect(tokens).toBeGreaterThanOrEqual(
            openaiPatchesDocumented({ width, height }, multiplier as number),
          );
          expect(
            openaiImageTokens({ width: width + wider, height: height + taller }, model as string),
          ).toBeGreaterThanOrEqual(tokens);
        },
      ),
    );
  });

  it('prices tile models between the low-detail price and the largest image, the same either way round', () => {
    fc.assert(
      fc.property(
        side,
        side,
        fc.constantFrom('gpt-4o', 'gpt-4o-mini', 'o1', 'gpt-5', 'computer-use-preview'),
        (width, height, model) => {
          const tokens = openaiImageTokens({ width, height }, model);
          expect(tokens).toBeGreaterThan(openaiImageTokens({ width, height }, model, 'low'));
          expect(tokens).toBeLessThanOrEqual(openaiMaxImageTokens(model));
          expect(openaiImageTokens({ width: height, height: width }, model)).toBe(tokens);
        },
      ),
    );
  });

  it('prices models the table does not name at least as gpt-4o and gpt-4.1-mini', () => {
    fc.assert(
      fc.property(side, side, (width, height) => {
        const tokens = openaiImageTokens({ width, height }, 'gpt-5.4');
        expect(tokens).toBeGreaterThanOrEqual(openaiImageTokens({ width, height }, 'gpt-4o'));
        expect(tokens).toBeGreaterThanOrEqual(openaiImageTokens({ width, height }, 'gpt-4.1-mini'));
      }),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jpegHeader, pdfBytes, pngHeader, toBase64, webpLossyHeader } from './__fixtures__/media-bytes.js';
import { anthropicImageTokens, anthropicPdfPageTokens } from './anthropic-media-tokens.js';
import { createMediaPricer } from './media-pricer.js';
import { openaiImageTokens, openaiMaxImageTokens, openaiPdfPageTokens } from './openai-media-tokens.js';

const side = fc.integer({ min: 1, max: 12_000 });

describe('createMediaPricer', () => {
  it('prices an image by the size in its header, given as base64 or a data URL', () => {
    const anthropic = createMediaPricer({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(anthropic.image(toBase64(pngHeader(1000, 1000)))).toBe(1334);
    expect(anthropic.image(`data:image/webp;base64,${toBase64(webpLossyHeader(200, 200))}`)).toBe(54);
    const openai = createMediaPricer({ provider: 'openai', model: 'gpt-4o' });
    expect(openai.image(toBase64(jpegHeader(1024, 1024, 20_000)))).toBe(765);
  });

  it('prices an image it cannot read, or a URL, at the largest image of the rule', () => {
    const openai = createMediaPricer({ provider: 'openai', model: 'gpt-4o' });
    expect(openai.image('https://example.com/cat.png')).toBe(85 + 8 * 170);
    expect(openai.image(toBase64(jpegHeader(1024, 1024, 300_000)))).toBe(openaiMaxImageTokens('gpt-4o'));
    expect(createMediaPricer({ provider: 'anthropic', model: 'claude-opus-4-7' }).image('not base64!')).toBe(
      4784,
    );
  });

  it('prices by the larger rule when no provider is given, never below either', () => {
    const pricer = createMediaPricer();
    fc.assert(
      fc.property(side, side, (width, height) => {
        const tokens = pricer.image(toBase64(pngHeader(width, height)));
        expect(tokens).toBeGreaterThanOrEqual(anthropicImageTokens({ width, height }));
        expect(tokens).toBeGreaterThanOrEqual(openaiImageTokens({ width, height }));
        expect(tokens).toBe(
          Math.max(anthropicImageTokens({ width, height }), openaiImageTokens({ width, height })),
        );
      }),
    );
  });

  it('prices a PDF of N pages at N pages, whatever its size', () => {
    const anthropic = createMediaPricer({ provider: 'anthropic' });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 20_000 }),
        (pages, paddingBytes) => {
          const data = toBase64(pdfBytes(pages, { paddingBytes }));
          expect(anthropic.file(data, 'application/pdf')).toBe(pages * anthropicPdfPageTokens);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('prices a 750 KB PDF of three pages by its pages, not as text', () => {
    const data = toBase64(pdfBytes(3, { paddingBytes: 750 * 1024 }));
    expect(createMediaPricer({ provider: 'anthropic' }).file(data, 'application/pdf')).toBe(3 * 4600);
    expect(createMediaPricer({ provider: 'openai', model: 'gpt-4o' }).file(data, 'application/pdf')).toBe(
      3 * openaiPdfPageTokens('gpt-4o'),
    );
    expect(createMediaPricer().file(`data:application/pdf;base64,${data}`, 'application/pdf')).toBe(
      3 * Math.max(anthropicPdfPageTokens, openaiPdfPageTokens()),
    );
  });

  it('prices a PDF whose pages it cannot see by its size, at most 100 pages', () => {
    const pricer = createMediaPricer({ provider: 'anthropic' });
    const hidden = (bytes: number) => toBase64(new TextEncoder().encode(`%PDF-1.5\n${'x'.repeat(bytes)}`));
    expect(pricer.file(hidden(30_000), 'application/pdf')).toBe(10 * anthropicPdfPageTokens);
    expect(pricer.file(hidden(3_000_000), 'application/pdf')).toBe(100 * anthropicPdfPageTokens);
  });

  it('leaves text, other files and remote documents to the caller, and prices image files as images', () => {
    const pricer = createMediaPricer({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(pricer.file('hello', 'text/plain')).toBeUndefined();
    expect(pricer.file('AAAA', 'audio/wav')).toBeUndefined();
    expect(pricer.file('https://example.com/report.pdf', 'application/pdf')).toBeUndefined();
    expect(pricer.file(toBase64(pngHeader(200, 200)), 'image/png')).toBe(54);
  });

  it('prices an Anthropic image given by a Files API id as the largest image of the rule, not as its text', () => {
    const block = { type: 'image', source: { type: 'file', file_id: 'file_011CNha8iCJcU1wXNR6q4V8w' } };
    expect(
      createMediaPricer({ provider: 'anthropic', model: 'claude-sonnet-4-5' }).verbatimBlock(block),
    ).toBe(1600);
    expect(createMediaPricer({ provider: 'anthropic', model: 'claude-opus-4-7' }).verbatimBlock(block)).toBe(
      4784,
    );
    expect(createMediaPricer().verbatimBlock(block)).toBe(Math.max(4784, openaiMaxImageTokens(undefined)));
  });

  it('leaves every other verbatim block to be counted as text', () => {
    const pricer = createMediaPricer({ provider: 'anthropic' });
    expect(
      pricer.verbatimBlock({ type: 'document', source: { type: 'file', file_id: 'file_1' } }),
    ).toBeUndefined();
    expect(pricer.verbatimBlock({ type: 'image', source: { type: 'base64', data: 'AAAA' } })).toBeUndefined();
    expect(pricer.verbatimBlock({ type: 'server_tool_use', id: 'x' })).toBeUndefined();
    expect(pricer.verbatimBlock(undefined)).toBeUndefined();
    expect(pricer.verbatimBlock('image')).toBeUndefined();
  });
});

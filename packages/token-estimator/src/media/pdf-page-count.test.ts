import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pdfBytes } from './__fixtures__/media-bytes.js';
import { countPdfPages } from './pdf-page-count.js';

const encode = (text: string) => new TextEncoder().encode(text);

describe('countPdfPages', () => {
  it('counts the page objects of a PDF, not its page tree nodes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.boolean(), (pages, compactNames) => {
        expect(countPdfPages(pdfBytes(pages, { compactNames }))).toBe(pages);
      }),
      { numRuns: 50 },
    );
  });

  it('counts the pages of a PDF padded with binary data', () => {
    expect(countPdfPages(pdfBytes(3, { paddingBytes: 750_000 }))).toBe(3);
  });

  it('reads the page tree count when the page objects are compressed', () => {
    const pdf =
      '%PDF-1.5\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Count 12 >>';
    expect(countPdfPages(encode(pdf))).toBe(12);
  });

  it('reads the page count of a linearized PDF', () => {
    const pdf =
      '%PDF-1.6\n1 0 obj\n<< /Linearized 1 /L 91234 /H [ 600 200 ] /O 4 /E 8000 /N 7 /T 90000 >>\nendobj';
    expect(countPdfPages(encode(pdf))).toBe(7);
  });

  it('gives no count when nothing shows the pages, or for bytes that are not a PDF', () => {
    expect(
      countPdfPages(encode('%PDF-1.5\n1 0 obj\n<< /Type /ObjStm /N 40 /First 300 >>\nstream')),
    ).toBeUndefined();
    expect(countPdfPages(encode('/Type /Page /Type /Page'))).toBeUndefined();
  });
});

/**
 * The number of pages of a PDF, read from its bytes without a PDF library: the page objects (`/Type /Page`,
 * not `/Pages`), else the largest `/Count` (the root of the page tree counts every page), else the page count
 * of a linearized file (`/Linearized ... /N`). `undefined` when none is visible, as when the page tree sits in
 * compressed object streams.
 */
export function countPdfPages(bytes: Uint8Array): number | undefined {
  const text = latin1(bytes);
  if (!text.startsWith('%PDF-')) return undefined;
  const pageObjects = text.match(/\/Type\s*\/Page(?![A-Za-z])/g)?.length ?? 0;
  if (pageObjects > 0) return pageObjects;
  const counts = [...text.matchAll(/\/Count\s+(\d+)/g)].map((match) => Number(match[1]));
  const largestCount = Math.max(0, ...counts);
  if (largestCount > 0) return largestCount;
  const linearized = /\/Linearized\b[^>]*?\/N\s+(\d+)/.exec(text);
  return linearized ? Number(linearized[1]) : undefined;
}

function latin1(bytes: Uint8Array): string {
  let text = '';
  // Chunks keep the argument list of fromCharCode within every engine's limit.
  for (let offset = 0; offset < bytes.length; offset += 8192) {
    text += String.fromCharCode(...bytes.subarray(offset, offset + 8192));
  }
  return text;
}

/**
 * A pretend repository the agent works on. The outputs are large on purpose (a file read is about 3,000
 * tokens), as real tool outputs are, so the history crosses the compaction trigger every few steps.
 */

/** The files the scripted model reads, in order. */
export const files = Array.from({ length: 9 }, (_, index) => `src/billing/module-${index + 1}.ts`);

/** The body of a file: distinct lines, so no two reads look alike. */
export function readFile(path: string): string {
  return Array.from(
    { length: 160 },
    (_, line) =>
      `/* ${path}:${line + 1} */ export const rate${line} = round(amount * ${(line % 7) + 1} / 100);`,
  ).join('\n');
}

/** A test run's log: many passing lines and one failure at the end. */
export function runTests(pattern: string): string {
  const passing = Array.from(
    { length: 120 },
    (_, index) => `  ✓ ${pattern} › computes case ${index + 1} (${(index % 9) + 1} ms)`,
  );
  return [
    ...passing,
    `  ✗ ${pattern} › rounds half-cent amounts up`,
    '    expected 10.01, received 10.00 at src/billing/module-4.ts:77',
  ].join('\n');
}

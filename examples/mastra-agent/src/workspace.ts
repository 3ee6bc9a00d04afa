/**
 * A pretend repository the agent works on. A file read is large on purpose (about 2,500 tokens), as real tool
 * outputs are, so the conversation crosses the compaction trigger every turn or two.
 */

/** What the user asks, turn by turn: each turn names the files to read. */
export const turns = [
  'A half-cent invoice is off by one cent. First read src/billing/module-1.ts, src/billing/module-2.ts',
  'Keep going: read src/billing/module-3.ts, src/billing/module-4.ts',
  'Now read src/billing/module-5.ts, src/billing/module-6.ts',
  'Last ones: read src/billing/module-7.ts, src/billing/module-8.ts',
  'Recall what src/billing/module-1.ts said at its first line, then explain the bug.',
];

/** The body of a file: distinct lines, so no two reads look alike. */
export function readFile(path: string): string {
  return Array.from(
    { length: 120 },
    (_, line) =>
      `/* ${path}:${line + 1} */ export const rate${line} = round(amount * ${(line % 7) + 1} / 100);`,
  ).join('\n');
}

import { mkdtempSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

/** The package folder. */
export const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A fresh temporary folder, inside the run's folder that the global setup removes when the run ends. */
export function temporaryDirectory(): string {
  return mkdtempSync(join(inject('temporaryRoot'), 'compaction-server-'));
}

/** JSON a test reads without declaring its whole shape. */
// biome-ignore lint/suspicious/noExplicitAny: tests assert on loosely typed JSON answers.
export type LooseJson = any;

import { describe, it } from 'vitest';

/**
 * `describe` on the full run, nothing on the Node 22 compatibility run (scripts/test-node-22.sh sets
 * `COMPACTION_COMPATIBILITY_RUN`): for tests whose work the Node 20 run has done and that a second Node version
 * would not change. Each file that uses it says why.
 */
export const describeOnFullRun: (name: string, body: () => void) => void =
  process.env.COMPACTION_COMPATIBILITY_RUN === undefined ? describe : () => {};

/** `it` on the full run, nothing on the Node 22 compatibility run (see {@link describeOnFullRun}). */
export const itOnFullRun: (name: string, body: () => Promise<void>, timeout?: number) => void =
  process.env.COMPACTION_COMPATIBILITY_RUN === undefined ? it : () => {};

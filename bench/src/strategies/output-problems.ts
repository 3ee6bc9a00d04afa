import { createTokenCounter, type Message, verifyCompaction } from '@compaction/core';

/**
 * What is wrong with one contender's compacted history, empty when it did the job: every rule a compaction
 * keeps (`verifyCompaction`: valid messages, tool calls and results paired, system and newest request kept...)
 * and a count at or under `target`. A time only counts for output that passes, so that a contender that
 * skips the work (or breaks the history) cannot look fast.
 */
export function outputProblems(
  before: readonly Message[],
  after: readonly Message[],
  target: number,
): string[] {
  // A counter of its own, so that checking never warms the counter a contender is timed with.
  const counter = createTokenCounter();
  return verifyCompaction({ before, after, counter, limit: target }).map(
    (violation) => `${violation.rule}: ${violation.message}`,
  );
}

import type { ContractViolation } from '@compaction/testing';
import type { AiSdkTarget } from './ai-sdk-target.js';

/** The requests a violation was found between: the uncompacted one and the compacted one, same step. */
export interface ViolationContext {
  target: AiSdkTarget;
  original: unknown;
  compacted: unknown;
}

/**
 * A violation the check knows the cause of. `bug` problems are open bugs of the AI SDK path, each reproduced
 * by an `it.fails` test in `known-problems.test.ts` (remove the entry when that test flips); `reading`
 * problems are violations of how the kit reads a request, not of what the API accepts (see the README).
 */
export interface KnownProblem {
  id: string;
  kind: 'bug' | 'reading';
  description: string;
  matches(violation: ContractViolation, context: ViolationContext): boolean;
}

/**
 * Violations of a known cause, reported apart by the AI SDK check: none today (the bugs it found are fixed,
 * and `known-problems.test.ts` keeps them so). A new entry needs a reproduction there.
 */
export const knownProblems: readonly KnownProblem[] = [];

/** The known problem a violation comes from, if the check knows one. */
export function knownProblemOf(
  violation: ContractViolation,
  context: ViolationContext,
): KnownProblem | undefined {
  return knownProblems.find((problem) => problem.matches(violation, context));
}

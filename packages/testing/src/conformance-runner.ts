import {
  BudgetUnreachableError,
  CompactionError,
  type CompactionInput,
  type CompactionOutput,
  type CompactionStrategy,
  deepEqual,
  findMessageIssues,
  type Message,
  openingIndexes,
  type TokenCounter,
  verifyCompaction,
} from '@compaction/core';
import { pinPlanState } from '@compaction/core/working-state';
import fc from 'fast-check';
import { archiveProblem } from './archive-check.js';
import { latestPlanProblem } from './conformance-plan.js';
import { compactInRounds, type RoundsCase } from './conformance-rounds.js';
import type { ConformanceTally } from './conformance-tally.js';
import { deepCopy } from './deep-copy.js';
import { deepFreeze } from './deep-freeze.js';
import type { FloorOf } from './protected-tokens.js';

/** One generated case of the conformance suite: a history and its budget as shares of its size. */
export interface ConformanceCase {
  messages: Message[];
  limitShare: number;
  targetShare: number;
}

/** One call of the strategy on a case, with what the properties judge it by. */
interface Run {
  input: CompactionInput;
  /** Tokens of the input history. */
  total: number;
  /** What no result can get below ({@link FloorOf}): targets at or above it are reachable. */
  floor: number;
  output?: CompactionOutput;
  error?: BudgetUnreachableError;
}

/**
 * The predicates of the conformance properties, one method each: a method throws (or returns false) when
 * its property breaks. Every call of the strategy on a valid history goes through {@link run}, which holds
 * the one rule on errors: only `BudgetUnreachableError`, and only on a target below the floor.
 */
export class ConformanceRunner {
  /** The cases the progress property saw, and how many of them were compacted. */
  readonly tally: ConformanceTally = { cases: 0, overTarget: 0, compacted: 0 };

  constructor(
    private readonly strategy: CompactionStrategy,
    private readonly newCounter: () => TokenCounter,
    private readonly floorOf: FloorOf,
  ) {}

  async keepsTheRules(testCase: ConformanceCase): Promise<boolean> {
    const { input, output } = await this.run(testCase);
    if (output === undefined) return true;
    return assertNoViolations(input.messages, output.messages, this.newCounter(), input.budget.limit);
  }

  /**
   * Every message of the opening (everything before the first model message, `openingIndexes`) comes back
   * the same object, in order, besides every other rule.
   */
  async keepsTheOpening(testCase: ConformanceCase): Promise<boolean> {
    const { input, output } = await this.run(testCase);
    if (output === undefined) return true;
    let from = 0;
    for (const index of openingIndexes(input.messages)) {
      const found = output.messages.indexOf(input.messages[index]!, from);
      if (found === -1) {
        throw new Error(`message ${index} of the opening was removed, changed or moved out of order`);
      }
      from = found + 1;
    }
    return assertNoViolations(input.messages, output.messages, this.newCounter(), input.budget.limit);
  }

  /**
   * On a history with plan tool calls, pinned as the Compactor pins them (`pinPlanState`), the latest plan
   * call and its result come back verbatim ({@link latestPlanProblem}), besides every other rule.
   */
  async keepsThePlan(testCase: ConformanceCase): Promise<boolean> {
    const { input, output } = await this.run({ ...testCase, messages: pinPlanState(testCase.messages) });
    if (output === undefined) return true;
    const problem = latestPlanProblem(input.messages, output.messages);
    if (problem !== undefined) throw new Error(problem);
    return assertNoViolations(input.messages, output.messages, this.newCounter(), input.budget.limit);
  }

  /** Compacts in rounds, turns added between (see {@link compactInRounds}). */
  async mergesWithEarlier(testCase: RoundsCase): Promise<boolean> {
    return compactInRounds(this.strategy, this.newCounter, testCase);
  }

  async givesUpOnlyWhenUnreachable(testCase: ConformanceCase): Promise<boolean> {
    await this.run(testCase);
    return true;
  }

  async reachesReachableTargets(testCase: ConformanceCase): Promise<boolean> {
    return this.judgeProgress(await this.run(testCase));
  }

  /**
   * With `archive`: the rules, the limit and reachable targets hold as without (markers and placeholders
   * that name handles are longer, and must be paid for), and what was removed is archived
   * ({@link archiveProblem}).
   */
  async archives(testCase: ConformanceCase): Promise<boolean> {
    const run = await this.run(testCase, undefined, true);
    this.judgeProgress(run);
    if (run.output === undefined) return true;
    const { messages, archived } = run.output;
    assertNoViolations(run.input.messages, messages, this.newCounter(), run.input.budget.limit, archived);
    const problem = archiveProblem(run.input.messages, run.output);
    if (problem !== undefined) throw new Error(`with archive: ${problem}`);
    return true;
  }

  /** Counts the run in the tally; throws when it returned a history over a reachable target. */
  private judgeProgress({ input, total, floor, output }: Run): boolean {
    const { target } = input.budget;
    const tokens = output === undefined ? total : input.counter.estimate(output.messages);
    this.tally.cases++;
    // A case counts when there is something to compact: over its target, with the floor below the whole.
    if (total > target && floor < total) this.tally.overTarget++;
    if (tokens < total) this.tally.compacted++;
    if (output !== undefined && floor <= target && tokens > target) {
      throw new Error(
        `returned ${tokens} tokens against a reachable target of ${target} (floor ${floor}, ` +
          `history ${total}, limit ${input.budget.limit})`,
      );
    }
    return true;
  }

  async doesNotMutate(testCase: ConformanceCase): Promise<boolean> {
    const snapshot = structuredClone(testCase.messages);
    const { input } = await this.run(testCase);
    if (!deepEqual(input.messages, snapshot)) throw new Error('the input history changed');
    return true;
  }

  async deterministic(testCase: ConformanceCase): Promise<boolean> {
    const first = await this.run(testCase);
    const second = await this.run({ ...testCase, messages: structuredClone(testCase.messages) });
    if (first.error !== undefined || second.error !== undefined) {
      if (first.error?.code !== second.error?.code) throw new Error('one run threw and the other did not');
      return true;
    }
    if (
      !deepEqual(first.output?.messages, second.output?.messages) ||
      first.output?.summary !== second.output?.summary
    ) {
      throw new Error('two runs on equal inputs returned different histories');
    }
    return true;
  }

  async generousBudget(testCase: ConformanceCase): Promise<boolean> {
    const total = this.newCounter().estimate(testCase.messages);
    const { input, output, error } = await this.run(testCase, { limit: total + 1, target: total + 1 });
    // The history already fits, so giving up is wrong even where the floor (markers cost tokens too) is above it.
    if (output === undefined) {
      throw new Error(
        `gave up on a reachable target of ${total + 1}, which the history of ${total} already fits: ${error?.message}`,
      );
    }
    return assertNoViolations(input.messages, output.messages, this.newCounter(), input.budget.limit);
  }

  async malformed(messages: unknown[]): Promise<boolean> {
    const original = deepCopy(messages);
    const input = deepFreeze(messages) as Message[];
    let output: CompactionOutput;
    try {
      output = await this.strategy.compact({
        messages: input,
        counter: this.newCounter(),
        budget: { limit: 1000, target: 500 },
        trigger: 'auto',
        round: 1,
      });
    } catch (error) {
      if (CompactionError.isInstance(error)) return true;
      throw new Error(`crashed with ${describeError(error)} instead of a typed error`);
    }
    // fast-check's rendering, not deepEqual: malformed inputs hold NaN, which equals itself only there.
    if (fc.stringify(input) !== fc.stringify(original)) throw new Error('the input history changed');
    // A documented repair: what comes back must be a valid history that keeps, against the input's
    // well-formed messages, every rule but the size (a repair may keep what is over the budget).
    const damaged = new Set(findMessageIssues(input).map((issue) => issue.index));
    const wellFormed = input.filter((_, index) => !damaged.has(index));
    return assertNoViolations(wellFormed, output.messages, this.newCounter());
  }

  /** Runs the strategy on a frozen copy and judges what it threw. */
  private async run(
    testCase: ConformanceCase,
    budgetOverride?: { limit: number; target: number },
    archive = false,
  ): Promise<Run> {
    const counter = this.newCounter();
    const total = counter.estimate(testCase.messages);
    const limit = Math.max(1, Math.floor(total * testCase.limitShare));
    const budget = budgetOverride ?? { limit, target: Math.max(1, Math.floor(limit * testCase.targetShare)) };
    const messages = deepFreeze(structuredClone(testCase.messages));
    const floor = archive ? this.floorOf(messages, counter, { archive }) : this.floorOf(messages, counter);
    const input: CompactionInput = {
      messages,
      counter,
      budget,
      trigger: 'auto',
      round: 1,
      ...(archive ? { archive } : {}),
    };
    try {
      return { input, total, floor, output: await this.strategy.compact(input) };
    } catch (error) {
      if (!BudgetUnreachableError.isInstance(error)) {
        const kind = CompactionError.isInstance(error) ? error.code : describeError(error);
        throw new Error(
          `threw ${kind} on a valid history; the only error allowed there is BudgetUnreachableError`,
        );
      }
      if (floor <= budget.target) {
        throw new Error(
          `gave up on a reachable target of ${budget.target} (floor ${floor}, history ${total}): ${error.message}`,
        );
      }
      return { input, total, floor, error };
    }
  }
}

function assertNoViolations(
  before: readonly Message[],
  after: readonly Message[],
  counter: TokenCounter,
  limit?: number,
  archived?: unknown,
): boolean {
  const violations = verifyCompaction({
    before,
    after,
    counter,
    archived,
    ...(limit === undefined ? {} : { limit }),
  });
  if (violations.length > 0) {
    throw new Error(
      `broke ${violations.map((violation) => `${violation.rule} (${violation.message})`).join(', ')}`,
    );
  }
  return true;
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

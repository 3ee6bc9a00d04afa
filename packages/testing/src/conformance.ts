import {
  CompactionError,
  type CompactionInput,
  type CompactionOutput,
  type CompactionStrategy,
  deepEqual,
  type Message,
  TokenCounter,
  type TokenEstimator,
  verifyCompaction,
} from '@compaction/core';
import fc from 'fast-check';
import { conversationArbitrary, malformedConversationArbitrary } from './conversation-arbitrary.js';
import { deepFreeze } from './deep-freeze.js';

/** The properties every strategy must have, with what each checks. */
export const conformanceProperties = {
  'keeps-the-rules':
    'On any valid history and any budget, a returned history keeps every rule (tool pairing, system and pinned ' +
    'messages, newest user request, user turn first, unchanged messages are the same objects, within the limit).',
  'throws-only-typed-errors':
    'When a strategy cannot compact (say, a single message over the budget), it throws a CompactionError.',
  'does-not-mutate-input': 'The input list and its messages are deeply frozen and must come out equal.',
  deterministic: 'Two runs on equal inputs with fresh counters return equal histories and summaries.',
  'handles-generous-budget':
    'With a budget the history already fits, the strategy returns a valid history without throwing.',
  'rejects-malformed-input':
    'Malformed histories get a typed error or a valid repaired result, never a crash.',
} as const;

/** The name of a conformance property. */
export type ConformancePropertyName = keyof typeof conformanceProperties;

/** Settings of the conformance suite. */
export interface ConformanceSettings {
  /** The strategy under test, or a function that makes it. */
  strategy: CompactionStrategy | (() => CompactionStrategy | Promise<CompactionStrategy>);
  /** Generated conversations per property. Default 1,000. */
  numRuns?: number;
  /** The fast-check seed, for reproducing a failure. */
  seed?: number;
  /** The estimator the counter uses; defaults to core's default. */
  estimator?: TokenEstimator;
  /** Properties to skip, each with the reason (shown in the report). */
  skip?: Partial<Record<ConformancePropertyName, string>>;
}

/** The outcome of one property. */
export interface PropertyOutcome {
  property: ConformancePropertyName;
  passed: boolean;
  numRuns: number;
  /** fast-check's report of the smallest counterexample, when the property failed. */
  failure?: string;
  skipped?: string;
}

/**
 * The default number of generated conversations per property: 1,000, or `$CONFORMANCE_RUNS` when set (the
 * repository's Node 22 compatibility pass uses fewer, having run the full count on Node 20).
 */
export const defaultConformanceRuns = runsFromEnvironment() ?? 1000;

function runsFromEnvironment(): number | undefined {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
    ?.CONFORMANCE_RUNS;
  const runs = value === undefined ? Number.NaN : Number(value);
  return Number.isInteger(runs) && runs > 0 ? runs : undefined;
}

interface Case {
  messages: Message[];
  limitShare: number;
  targetShare: number;
}

const caseArbitrary: fc.Arbitrary<Case> = fc.record({
  messages: conversationArbitrary(),
  limitShare: fc.double({ min: 0.05, max: 1.2, noNaN: true }),
  targetShare: fc.double({ min: 0.4, max: 1, noNaN: true }),
});

/** Runs one property against a strategy and reports whether it held. */
export async function checkConformanceProperty(
  property: ConformancePropertyName,
  settings: ConformanceSettings,
): Promise<PropertyOutcome> {
  const numRuns = settings.numRuns ?? defaultConformanceRuns;
  const skipped = settings.skip?.[property];
  if (skipped !== undefined) return { property, passed: true, numRuns: 0, skipped };
  const strategy = typeof settings.strategy === 'function' ? await settings.strategy() : settings.strategy;
  const newCounter = () => new TokenCounter(settings.estimator);
  const runner = new PropertyRunner(strategy, newCounter);
  const parameters = { numRuns, ...(settings.seed === undefined ? {} : { seed: settings.seed }) };
  const failure =
    property === 'rejects-malformed-input'
      ? await runProperty(
          malformedConversationArbitrary(),
          (messages) => runner.malformed(messages),
          parameters,
        )
      : await runProperty(
          caseArbitrary,
          (testCase) => runner[propertyMethods[property]](testCase),
          parameters,
        );
  return failure === undefined
    ? { property, passed: true, numRuns }
    : { property, passed: false, numRuns, failure };
}

/** Runs one fast-check property; returns fast-check's report of the smallest counterexample, if any. */
async function runProperty<T>(
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<boolean>,
  parameters: { numRuns: number; seed?: number },
): Promise<string | undefined> {
  const details = await fc.check(fc.asyncProperty(arbitrary, predicate), parameters);
  if (!details.failed) return undefined;
  // The reason first: counterexamples can be large, so they follow, cut to a readable length.
  const reason =
    details.errorInstance instanceof Error ? details.errorInstance.message : 'the property returned false';
  const example = JSON.stringify(details.counterexample) ?? '';
  const shown =
    example.length > 2000 ? `${example.slice(0, 2000)}... (${example.length} characters)` : example;
  return `${reason}\n(seed ${details.seed}, path "${details.counterexamplePath}")\nCounterexample: ${shown}`;
}

/** Runs every property against a strategy. */
export async function checkConformance(settings: ConformanceSettings): Promise<PropertyOutcome[]> {
  const outcomes: PropertyOutcome[] = [];
  for (const property of Object.keys(conformanceProperties) as ConformancePropertyName[]) {
    outcomes.push(await checkConformanceProperty(property, settings));
  }
  return outcomes;
}

const propertyMethods = {
  'keeps-the-rules': 'keepsTheRules',
  'throws-only-typed-errors': 'throwsOnlyTypedErrors',
  'does-not-mutate-input': 'doesNotMutate',
  deterministic: 'deterministic',
  'handles-generous-budget': 'generousBudget',
} as const satisfies Record<
  Exclude<ConformancePropertyName, 'rejects-malformed-input'>,
  keyof PropertyRunner
>;

/** Each method is one property's predicate: it throws (or returns false) when the property breaks. */
class PropertyRunner {
  constructor(
    private readonly strategy: CompactionStrategy,
    private readonly newCounter: () => TokenCounter,
  ) {}

  async keepsTheRules(testCase: Case): Promise<boolean> {
    const { input, output } = await this.run(testCase);
    if (output === undefined) return true;
    return assertNoViolations(input, output, this.newCounter());
  }

  async throwsOnlyTypedErrors(testCase: Case): Promise<boolean> {
    await this.run(testCase);
    return true;
  }

  async doesNotMutate(testCase: Case): Promise<boolean> {
    const snapshot = structuredClone(testCase.messages);
    const { input } = await this.run(testCase);
    if (!deepEqual(input.messages, snapshot)) throw new Error('the input history changed');
    return true;
  }

  async deterministic(testCase: Case): Promise<boolean> {
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

  async generousBudget(testCase: Case): Promise<boolean> {
    const counter = this.newCounter();
    const total = counter.estimate(testCase.messages);
    const { input, output, error } = await this.run(testCase, { limit: total + 1, target: total + 1 });
    if (error !== undefined)
      throw new Error(`threw ${error.code} although the history already fits: ${error.message}`);
    return assertNoViolations(input, output!, counter);
  }

  async malformed(messages: unknown[]): Promise<boolean> {
    const counter = this.newCounter();
    try {
      const output = await this.strategy.compact({
        messages: deepFreeze(messages) as Message[],
        counter,
        budget: { limit: 1000, target: 500 },
        trigger: 'auto',
        round: 1,
      });
      // A documented repair: what comes back must itself be a valid history.
      return assertNoViolations(
        {
          messages: output.messages,
          counter,
          budget: { limit: Number.MAX_SAFE_INTEGER, target: 0 },
          trigger: 'auto',
          round: 1,
        },
        output,
        counter,
      );
    } catch (error) {
      if (CompactionError.isInstance(error)) return true;
      throw new Error(`crashed with ${describeError(error)} instead of a typed error`);
    }
  }

  /** Runs the strategy on a frozen copy; rethrows anything that is not a Compaction error. */
  private async run(
    testCase: Case,
    budgetOverride?: { limit: number; target: number },
  ): Promise<{ input: CompactionInput; output?: CompactionOutput; error?: CompactionError }> {
    const counter = this.newCounter();
    const total = counter.estimate(testCase.messages);
    const limit = Math.max(1, Math.floor(total * testCase.limitShare));
    const budget = budgetOverride ?? { limit, target: Math.max(1, Math.floor(limit * testCase.targetShare)) };
    const messages = deepFreeze(structuredClone(testCase.messages));
    const input: CompactionInput = { messages, counter, budget, trigger: 'auto', round: 1 };
    try {
      return { input, output: await this.strategy.compact(input) };
    } catch (error) {
      if (CompactionError.isInstance(error)) return { input, error };
      throw new Error(`threw ${describeError(error)}, which is not a CompactionError`);
    }
  }
}

function assertNoViolations(
  input: CompactionInput,
  output: CompactionOutput,
  counter: TokenCounter,
): boolean {
  const violations = verifyCompaction({
    before: input.messages,
    after: output.messages,
    counter,
    limit: input.budget.limit,
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

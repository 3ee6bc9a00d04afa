import { type CompactionStrategy, createTokenCounter, type TokenEstimator } from '@compaction/core';
import fc from 'fast-check';
import { planConversationArbitrary } from './conformance-plan.js';
import { roundsCaseArbitrary } from './conformance-rounds.js';
import { type ConformanceCase, ConformanceRunner } from './conformance-runner.js';
import { type ConformanceTally, tallyShortfall } from './conformance-tally.js';
import { conversationArbitrary, malformedConversationArbitrary } from './conversation-arbitrary.js';
import { type FloorOf, reachableFloor } from './protected-tokens.js';

/** The properties every strategy must have, with what each checks. */
export const conformanceProperties = {
  'keeps-the-rules':
    'On any valid history and any budget, a returned history keeps every rule (tool pairing, system and pinned ' +
    'messages, the opening, newest user request, user turn first, unchanged messages are the same objects, within the limit).',
  'keeps-the-opening':
    'On histories that open with several messages before the first model turn (system and developer-like ' +
    'system messages, user messages holding context tags, more than one user message), every opening ' +
    'message comes back the same object, in order, and every rule holds.',
  'merges-with-earlier-compactions':
    'Compacting a compacted history again, 2 to 5 times with turns added between and its metadata dropped ' +
    'at random (as a provider format drops it), keeps the first opening the same objects and leaves at most ' +
    'one removal marker per run of removed messages, none side by side, their counts at least 1 and in all ' +
    'no more than the messages missing.',
  'gives-up-only-when-unreachable':
    'On a valid history the only error allowed is BudgetUnreachableError, and only when the target is below ' +
    'the floor (what the protected turns and a marker per gap cost).',
  'reaches-reachable-targets':
    'When the target is at or above the floor, the returned history is at or under the target; and at least ' +
    'half of the cases over their target come back compacted.',
  'keeps-the-plan':
    'On histories holding plan or todo tool calls (TodoWrite, update_plan, todowrite...), pinned as the ' +
    'Compactor pins them, the latest plan call and its result come back verbatim, and every rule holds.',
  'does-not-mutate-input': 'The input list and its messages are deeply frozen and must come out equal.',
  deterministic: 'Two runs on equal inputs with fresh counters return equal histories and summaries.',
  'handles-generous-budget':
    'With a budget the history already fits, the strategy returns a valid history without throwing.',
  'archives-what-it-removes':
    'With archive, the rules, the limit and reachable targets hold as without; every recall handle named in a ' +
    'new or changed message is among the archived items, which are valid; and an archived tool result is ' +
    'its original text.',
  'rejects-malformed-input':
    'Malformed histories get a typed error, or a valid repaired result that keeps the rules against the ' +
    'well-formed messages of the input, never a crash.',
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
  /**
   * Whether a failure is shrunk to its smallest counterexample. Default true. False stops at the first
   * failure (fast-check's `endOnFailure`): for a check that only asks whether a property fails, where shrinking
   * a large counterexample can take minutes on some seeds.
   */
  shrink?: boolean;
  /** The estimator the counter uses; defaults to core's default. */
  estimator?: TokenEstimator;
  /**
   * Tokens the strategy can never get below on a history: targets at or above it must be reached. Default
   * {@link reachableFloor}, right for every strategy that may remove unprotected turns; a strategy that
   * keeps every message by design (one that only shortens tool results) passes its own. The archive
   * property calls it with `{ archive: true }`: markers that name recall handles cost more.
   */
  floor?: FloorOf;
  /** Properties to skip, each with the reason (shown in the report). */
  skip?: Partial<Record<ConformancePropertyName, string>>;
}

/** The outcome of one property. */
export interface PropertyOutcome {
  property: ConformancePropertyName;
  passed: boolean;
  numRuns: number;
  /** fast-check's report of the smallest counterexample, or the tally's shortfall, when the property failed. */
  failure?: string;
  skipped?: string;
  /**
   * For `reaches-reachable-targets` and `archives-what-it-removes`: how many cases were over their target and
   * how many were compacted.
   */
  tally?: ConformanceTally;
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

const caseArbitrary: fc.Arbitrary<ConformanceCase> = fc.record({
  messages: conversationArbitrary(),
  limitShare: fc.double({ min: 0.05, max: 1.2, noNaN: true }),
  targetShare: fc.double({ min: 0.4, max: 1, noNaN: true }),
});

const openingCaseArbitrary: fc.Arbitrary<ConformanceCase> = fc.record({
  messages: conversationArbitrary({ multiMessageOpening: true }),
  limitShare: fc.double({ min: 0.05, max: 1.2, noNaN: true }),
  targetShare: fc.double({ min: 0.4, max: 1, noNaN: true }),
});

const planCaseArbitrary: fc.Arbitrary<ConformanceCase> = fc.record({
  messages: planConversationArbitrary(),
  limitShare: fc.double({ min: 0.05, max: 1.2, noNaN: true }),
  targetShare: fc.double({ min: 0.4, max: 1, noNaN: true }),
});

const propertyMethods = {
  'keeps-the-rules': 'keepsTheRules',
  'keeps-the-opening': 'keepsTheOpening',
  'keeps-the-plan': 'keepsThePlan',
  'gives-up-only-when-unreachable': 'givesUpOnlyWhenUnreachable',
  'reaches-reachable-targets': 'reachesReachableTargets',
  'does-not-mutate-input': 'doesNotMutate',
  deterministic: 'deterministic',
  'handles-generous-budget': 'generousBudget',
  'archives-what-it-removes': 'archives',
} as const satisfies Record<
  Exclude<ConformancePropertyName, 'rejects-malformed-input' | 'merges-with-earlier-compactions'>,
  keyof ConformanceRunner
>;

/** Runs one property against a strategy and reports whether it held. */
export async function checkConformanceProperty(
  property: ConformancePropertyName,
  settings: ConformanceSettings,
): Promise<PropertyOutcome> {
  const numRuns = settings.numRuns ?? defaultConformanceRuns;
  const skipped = settings.skip?.[property];
  if (skipped !== undefined) return { property, passed: true, numRuns: 0, skipped };
  const strategy = typeof settings.strategy === 'function' ? await settings.strategy() : settings.strategy;
  const newCounter = () => createTokenCounter(settings.estimator);
  const runner = new ConformanceRunner(strategy, newCounter, settings.floor ?? reachableFloor);
  const parameters = {
    numRuns,
    ...(settings.seed === undefined ? {} : { seed: settings.seed }),
    ...(settings.shrink === false ? { endOnFailure: true } : {}),
  };
  const counterexample =
    property === 'rejects-malformed-input'
      ? await runProperty(
          malformedConversationArbitrary(),
          (messages) => runner.malformed(messages),
          parameters,
        )
      : property === 'merges-with-earlier-compactions'
        ? // Each case is several compactions: a quarter of the runs costs about as much as another property.
          await runProperty(roundsCaseArbitrary, (testCase) => runner.mergesWithEarlier(testCase), {
            ...parameters,
            numRuns: Math.max(1, Math.ceil(numRuns / 4)),
          })
        : property === 'keeps-the-plan'
          ? // One rule over what the rules already check: an eighth of the runs, a few dozen per strategy.
            await runProperty(planCaseArbitrary, (testCase) => runner.keepsThePlan(testCase), {
              ...parameters,
              numRuns: Math.max(1, Math.ceil(numRuns / 8)),
            })
          : await runProperty(
              property === 'keeps-the-opening' ? openingCaseArbitrary : caseArbitrary,
              (testCase) => runner[propertyMethods[property]](testCase),
              parameters,
            );
  const progress = property === 'reaches-reachable-targets' || property === 'archives-what-it-removes';
  const failure = counterexample ?? (progress ? tallyShortfall(runner.tally) : undefined);
  return {
    property,
    passed: failure === undefined,
    numRuns,
    ...(failure === undefined ? {} : { failure }),
    ...(progress ? { tally: runner.tally } : {}),
  };
}

/** Runs one fast-check property; returns fast-check's report of the smallest counterexample, if any. */
async function runProperty<T>(
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<boolean>,
  parameters: { numRuns: number; seed?: number; endOnFailure?: boolean },
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

/**
 * Fits the weights of an estimator profile so that the worst content class or transcript is as close to its
 * exact total as it can be: a linear program over the groups' totals (see {@link fitMinimaxProfile}).
 */
import {
  type EstimatorProfile,
  measureText,
  type TextFeature,
  type TextFeatureWeights,
  textFeatureBonds,
  textFeatureNames,
  textFeatureOrders,
} from '@compaction/token-estimator';
import { solveLinearProgram } from './linear-program.js';

/** Texts the fit holds to one bound together: a content class of the calibration corpus, or one transcript. */
export interface FitGroup {
  name: string;
  texts: readonly string[];
}

/** Settings of {@link fitMinimaxProfile}. */
export interface MinimaxFitSettings {
  name: string;
  /** No group's total may be under its exact total by more than this fraction. */
  underCountLimit: number;
  /** The most that one place where text is added may take away from an estimate, in tokens. */
  maximumDrop: number;
  /**
   * How much the mean error of all groups counts against the worst one: 0 fits the worst group alone and
   * leaves the others anywhere within its error.
   */
  meanErrorShare: number;
}

/**
 * Counts that added text takes away while adding one of its own: a lone space before a number or ending the
 * text (`spacedNumbers`) stops counting when a character is put after it (a CJK character, punctuation, a
 * letter, a symbol, an emoji, more whitespace, a line feed); punctuation put
 * before a line feed moves it from `lineBreaks` to the lighter `joinedLineBreaks`. What is taken away, less the
 * cheapest count of what was added, must stay within the maximum drop.
 */
const trades: readonly { removed: readonly TextFeature[]; added: readonly TextFeature[] }[] = [
  ...(
    [
      ['cjk'],
      ['punctuationRuns', 'punctuation'],
      ['letterPieces', 'letters'],
      ['otherNonAscii'],
      ['surrogates'],
      ['spaceRuns'],
      ['lineBreaks'],
    ] as const
  ).map((added) => ({ removed: ['spacedNumbers'] as const, added })),
  { removed: ['lineBreaks'], added: ['joinedLineBreaks', 'punctuationRuns', 'punctuation'] },
];

interface GroupTotals {
  name: string;
  /** Each feature summed over the group's texts, divided by the exact tokens. */
  features: Float64Array;
  /** What the estimate adds beyond the weighted features (long-run floors, rounding up), per exact token. */
  fixed: number;
}

function groupTotals(group: FitGroup, exactCounter: (text: string) => number): GroupTotals {
  const features = new Float64Array(textFeatureNames.length);
  // The features, then the tokens of long repeated runs, which are added unweighted.
  const longRunTokens = textFeatureNames.length;
  const measured = new Float64Array(longRunTokens + 1);
  let fixed = 0;
  let exact = 0;
  for (const text of group.texts) {
    if (text.length === 0) continue;
    measureText(text, measured);
    for (let index = 0; index < features.length; index++) features[index]! += measured[index]!;
    // Each estimate is rounded up: half a token on average.
    fixed += measured[longRunTokens]! + 0.5;
    exact += exactCounter(text);
  }
  for (let index = 0; index < features.length; index++) features[index]! /= exact;
  return { name: group.name, features, fixed: fixed / exact };
}

/**
 * Fits a profile by linear programming: the weights (safety included, so the profile's safety factor is 1)
 * that minimize the largest relative error of any group's total estimate, plus `meanErrorShare` times the mean
 * error of all groups, with no group under-counted by more than `underCountLimit`, every group of
 * {@link textFeatureBonds} and every trade (see `trades` above) within `maximumDrop`, and each pair of
 * {@link textFeatureOrders} in order. A group's estimate is its weighted features plus its long-run floors and
 * half a token per text for the rounding up.
 *
 * @throws Error when no weights meet the bounds.
 */
export function fitMinimaxProfile(
  groups: readonly FitGroup[],
  exactCounter: (text: string) => number,
  settings: MinimaxFitSettings,
): EstimatorProfile {
  const totals = groups.map((group) => groupTotals(group, exactCounter));
  const featureCount = textFeatureNames.length;
  // Variables: the weights, the largest error, each group's error.
  const worst = featureCount;
  const width = featureCount + 1 + totals.length;
  const rows: number[][] = [];
  const bounds: number[] = [];
  const constrain = (coefficients: Map<number, number>, bound: number) => {
    const row = new Array<number>(width).fill(0);
    for (const [column, value] of coefficients) row[column]! += value;
    rows.push(row);
    bounds.push(bound);
  };
  const weightsOf = (features: Float64Array, sign: number) =>
    new Map([...features].map((value, column) => [column, sign * value]));
  totals.forEach((group, index) => {
    const error = featureCount + 1 + index;
    for (const sign of [1, -1]) {
      // sign · (estimate / exact - 1) <= the group's error <= the largest error.
      const overOrUnder = weightsOf(group.features, sign);
      constrain(new Map([...overOrUnder, [error, -1]]), sign * (1 - group.fixed));
    }
    constrain(
      new Map([
        [error, 1],
        [worst, -1],
      ]),
      0,
    );
    // estimate / exact >= 1 - underCountLimit.
    constrain(weightsOf(group.features, -1), group.fixed - (1 - settings.underCountLimit));
  });
  const column = (feature: TextFeature) => textFeatureNames.indexOf(feature);
  for (const group of textFeatureBonds) {
    constrain(new Map(group.map((feature) => [column(feature), 1])), settings.maximumDrop);
  }
  for (const trade of trades) {
    const coefficients = new Map(trade.removed.map((feature) => [column(feature), 1]));
    for (const feature of trade.added) coefficients.set(column(feature), -1);
    constrain(coefficients, settings.maximumDrop);
  }
  for (const [lighter, heavier] of textFeatureOrders) {
    constrain(
      new Map([
        [column(lighter), 1],
        [column(heavier), -1],
      ]),
      0,
    );
  }
  const objective = new Array<number>(width).fill(0);
  objective[worst] = 1;
  for (let index = 0; index < totals.length; index++) {
    objective[featureCount + 1 + index] = settings.meanErrorShare / totals.length;
  }
  const result = solveLinearProgram(objective, rows, bounds);
  if (result.status !== 'optimal') {
    throw new Error(`no ${settings.name} weights meet the bounds: the linear program is ${result.status}`);
  }
  const weights = {} as TextFeatureWeights;
  textFeatureNames.forEach((feature, index) => {
    // Rounded down, so bounds on sums of weights still hold.
    weights[feature] = Math.floor(result.solution[index]! * 10_000) / 10_000;
  });
  return { name: settings.name, weights, safetyFactor: 1 };
}

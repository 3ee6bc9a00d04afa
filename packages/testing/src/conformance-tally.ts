/** How many of a property's generated cases the strategy actually compacted. */
export interface ConformanceTally {
  /** Cases run. */
  cases: number;
  /** Cases whose history was over its target and over its floor: cases with something to compact. */
  overTarget: number;
  /** Cases the strategy returned fewer tokens for than it was given. */
  compacted: number;
}

/**
 * The least share of the cases over their target that a strategy must compact: a suite whose cases mostly
 * come back untouched proves nothing about compaction, whatever else holds.
 */
export const leastCompactedShare = 0.5;

/** The one line a run reports, e.g. "pruning: 187 of 200 cases compacted (193 over their target)". */
export function describeTally(name: string, tally: ConformanceTally): string {
  return `${name}: ${tally.compacted} of ${tally.cases} cases compacted (${tally.overTarget} over their target)`;
}

/** Why a tally is too thin to count, or undefined when enough cases were compacted. */
export function tallyShortfall(tally: ConformanceTally): string | undefined {
  if (tally.compacted >= tally.overTarget * leastCompactedShare) return undefined;
  return (
    `only ${tally.compacted} of the ${tally.overTarget} cases over their target were compacted ` +
    `(at least ${Math.ceil(tally.overTarget * leastCompactedShare)} must be)`
  );
}

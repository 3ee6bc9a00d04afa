const marker = 'compaction.token-estimator.invalid-settings';
const symbol = Symbol.for(marker);

/** One problem found in the settings of a text estimator: where it is and what is wrong. */
export interface EstimatorSettingsIssue {
  /** Path to the offending value, such as `profile.weights.cjk`. */
  path: string;
  message: string;
}

/**
 * A profile or safety factor that cannot count: a weight that is negative or not a number, a safety factor
 * that is not positive. Its `code` is the one `@compaction/core` uses for invalid options.
 */
export class InvalidEstimatorSettingsError extends Error {
  private readonly [symbol] = true;
  /** A stable, machine-readable code. */
  readonly code = 'invalid-options';
  readonly issues: EstimatorSettingsIssue[];

  constructor(issues: EstimatorSettingsIssue[]) {
    super(
      `Invalid settings for the text estimator: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`,
    );
    this.name = 'InvalidEstimatorSettingsError';
    this.issues = issues;
  }

  /**
   * Whether `error` is an {@link InvalidEstimatorSettingsError} from this or any other copy of the package:
   * it tests a `Symbol.for` marker, so it holds across duplicate installs where `instanceof` does not.
   */
  static isInstance(error: unknown): error is InvalidEstimatorSettingsError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}

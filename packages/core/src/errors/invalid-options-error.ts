import { CompactionError } from './compaction-error.js';

const marker = 'compaction.error.invalid-options';
const symbol = Symbol.for(marker);

/** One problem found in options or a config: where it is and what is wrong. */
export interface OptionsIssue {
  /** Path to the offending value, such as `budget.trigger` (empty for the root). */
  path: string;
  message: string;
}

/** Options or a config did not pass validation. */
export class InvalidOptionsError extends CompactionError {
  private readonly [symbol] = true;
  /** What was being validated, such as `strategy "pruning"` or `budget`. */
  readonly subject: string;
  readonly issues: OptionsIssue[];

  constructor({ subject, issues, cause }: { subject: string; issues: OptionsIssue[]; cause?: unknown }) {
    const details = issues.map((issue) => `${issue.path || '(root)'}: ${issue.message}`).join('; ');
    super({ code: 'invalid-options', message: `Invalid options for ${subject}: ${details}`, cause });
    this.name = 'InvalidOptionsError';
    this.subject = subject;
    this.issues = issues;
  }

  static override isInstance(error: unknown): error is InvalidOptionsError {
    return CompactionError.hasMarker(error, marker);
  }
}

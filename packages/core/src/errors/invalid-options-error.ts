import { CompactionError } from './compaction-error.js';

/** One problem found in options or a config: where it is and what is wrong. */
export interface OptionsIssue {
  /** Path to the offending value, such as `budget.trigger` (empty for the root). */
  path: string;
  message: string;
}

/** Options or a config did not pass validation. */
export class InvalidOptionsError extends CompactionError {
  static override readonly marker: string = 'compaction.error.invalid-options';
  override readonly name: string = 'InvalidOptionsError';
  /** What was being validated, such as `strategy "pruning"` or `budget`. */
  declare readonly subject: string;
  declare readonly issues: OptionsIssue[];
  constructor({ subject, issues, cause }: { subject: string; issues: OptionsIssue[]; cause?: unknown }) {
    const details = issues.map((issue) => `${issue.path || '(root)'}: ${issue.message}`).join('; ');
    super({ code: 'core/invalid-options', message: `Invalid options for ${subject}: ${details}`, cause });
    Object.assign(this, { subject, issues });
  }
}

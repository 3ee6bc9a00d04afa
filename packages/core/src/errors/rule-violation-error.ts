import type { RuleViolation } from '../verify/rule-violation.js';
import { CompactionError } from './compaction-error.js';

/** A strategy returned a history that breaks a compaction rule, and no fallback repaired the situation. */
export class RuleViolationError extends CompactionError {
  static override readonly marker: string = 'compaction.error.rule-violation';
  override readonly name: string = 'RuleViolationError';
  readonly strategy: string;
  readonly violations: RuleViolation[];

  constructor({
    strategy,
    violations,
    cause,
  }: { strategy: string; violations: RuleViolation[]; cause?: unknown }) {
    const shown = violations
      .slice(0, 3)
      .map((violation) => `${violation.rule}: ${violation.message}`)
      .join('; ');
    super({ code: 'core/rule-violation', message: `Strategy "${strategy}" broke a rule: ${shown}`, cause });
    this.strategy = strategy;
    this.violations = violations;
  }
}

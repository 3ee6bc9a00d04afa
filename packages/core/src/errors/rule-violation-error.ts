import type { RuleViolation } from '../verify/rule-violation.js';
import { CompactionError } from './compaction-error.js';

const marker = 'compaction.error.rule-violation';
const symbol = Symbol.for(marker);

/** A strategy returned a history that breaks a compaction rule, and no fallback repaired the situation. */
export class RuleViolationError extends CompactionError {
  private readonly [symbol] = true;
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
    super({ code: 'rule-violation', message: `Strategy "${strategy}" broke a rule: ${shown}`, cause });
    this.name = 'RuleViolationError';
    this.strategy = strategy;
    this.violations = violations;
  }

  static override isInstance(error: unknown): error is RuleViolationError {
    return CompactionError.hasMarker(error, marker);
  }
}

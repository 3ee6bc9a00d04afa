import type { RuleViolation } from '../verify/rule-violation.js';
import { CompactionError } from './compaction-error.js';

/** A strategy returned a history that breaks a compaction rule, and no fallback repaired the situation. */
export class RuleViolationError extends CompactionError {
  static override readonly marker: string = 'compaction.error.rule-violation';
  override readonly name: string = 'RuleViolationError';
  declare readonly strategy: string;
  declare readonly violations: RuleViolation[];
  constructor(settings: { strategy: string; violations: RuleViolation[]; cause?: unknown }) {
    const { strategy, violations, cause } = settings;
    const shown = violations.slice(0, 3).map(({ rule, message }) => `${rule}: ${message}`);
    const message = `Strategy "${strategy}" broke a rule: ${shown.join('; ')}`;
    super({ code: 'core/rule-violation', message, cause });
    Object.assign(this, { strategy, violations });
  }
}

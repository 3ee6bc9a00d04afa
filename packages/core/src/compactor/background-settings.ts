import { type Budget, toTokens } from '../budget/budget.js';
import { InvalidOptionsError, type OptionsIssue } from '../errors/invalid-options-error.js';

/**
 * Compaction off the critical path: once the history reaches `prepareAt`, `prepare` starts compacting it in
 * the background and returns at once; at the trigger, `prepare` uses that result when the history still
 * begins with what was compacted, with the messages that came since.
 */
export interface BackgroundSettings {
  /**
   * Where background compaction starts: a fraction of the limit (`(0, 1]`) or a token count, above the
   * budget's target and below its trigger.
   */
  prepareAt: number;
  /** Background compactions running at once across all sessions (one per session at most). Default 4. */
  maximumConcurrent?: number;
}

/** Background settings in tokens, checked against the budget. */
export interface ResolvedBackground {
  prepareAt: number;
  maximumConcurrent: number;
}

/** Resolves and checks {@link BackgroundSettings}; throws `InvalidOptionsError`. */
export function resolveBackground(settings: BackgroundSettings, budget: Budget): ResolvedBackground {
  const issues: OptionsIssue[] = [];
  const add = (path: string, message: string) => issues.push({ path: `background.${path}`, message });
  const { prepareAt: given, maximumConcurrent = 4 } = settings;
  const prepareAt =
    Number.isFinite(given) && given > 0 ? Math.floor(toTokens(given, budget.limit)) : Number.NaN;
  if (Number.isNaN(prepareAt)) add('prepareAt', 'must be a positive number');
  else if (budget.trigger === null) add('prepareAt', 'needs an automatic trigger (the budget disables it)');
  else if (prepareAt <= budget.target || prepareAt >= budget.trigger) {
    // Under the target a compaction would find nothing to do; at the trigger the work is on the critical path.
    const range = `above the target (${budget.target}) and below the trigger (${budget.trigger})`;
    add('prepareAt', `${prepareAt} tokens must be ${range}`);
  }
  if (!Number.isInteger(maximumConcurrent) || maximumConcurrent < 1) {
    add('maximumConcurrent', 'must be a positive integer');
  }
  if (issues.length > 0) throw new InvalidOptionsError({ subject: 'Compactor', issues });
  return { prepareAt, maximumConcurrent };
}

import { type Budget, toTokens } from '../budget/budget.js';
import { InvalidOptionsError, type OptionsIssue } from '../errors/invalid-options-error.js';

/**
 * Compaction off the critical path: once the history reaches `prepareAt`, `prepare` starts compacting it in
 * the background and returns at once; at the trigger, `prepare` uses that result when the history still
 * begins with what was compacted, with the messages that came since. While the result is not ready and the
 * history still fits under the limit, `prepare` sends it uncompacted (skipped `background-pending`) and
 * blocks only when it would not fit.
 */
export interface BackgroundSettings {
  /**
   * Where background compaction starts: a fraction of the limit (`(0, 1]`) or a token count, above the
   * budget's target and below its trigger.
   */
  prepareAt: number;
  /** Background compactions running at once across all sessions (one per session at most). Default 4. */
  maximumConcurrent?: number;
  /**
   * `true`: at the trigger, `prepare` waits for a running job (or compacts in line when there is none) even
   * while the history fits under the limit, so no request goes over the trigger; for a trigger that marks a
   * price step (long-context pricing) or a limit of the provider's. Default `false`: a history between the
   * trigger and the limit is sent as it is until the job's result is ready.
   */
  waitAtTrigger?: boolean;
}

/** Background settings in tokens, checked against the budget. */
export interface ResolvedBackground {
  prepareAt: number;
  maximumConcurrent: number;
  waitAtTrigger: boolean;
}

/** Resolves and checks {@link BackgroundSettings}; throws `InvalidOptionsError`. */
export function resolveBackground(settings: BackgroundSettings, budget: Budget): ResolvedBackground {
  const issues: OptionsIssue[] = [];
  const add = (path: string, message: string) => issues.push({ path: `background.${path}`, message });
  const { prepareAt: given, maximumConcurrent = 4, waitAtTrigger = false } = settings;
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
  if (typeof waitAtTrigger !== 'boolean') add('waitAtTrigger', 'must be true or false');
  if (issues.length > 0) throw new InvalidOptionsError({ subject: 'Compactor', issues });
  return { prepareAt, maximumConcurrent, waitAtTrigger };
}

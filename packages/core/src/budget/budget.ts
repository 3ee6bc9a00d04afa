import { InvalidOptionsError, type OptionsIssue } from '../errors/invalid-options-error.js';

/**
 * How much of the context window a conversation may use, and when to compact.
 *
 * Fractions and token counts share one convention: a number in `(0, 1]` is a fraction, a number above 1
 * is a token count.
 */
export interface BudgetOptions {
  /** The model's context window in tokens. */
  contextWindow: number;
  /** Tokens kept free for the model's answer. Default: a quarter of the window, at most 8,192. */
  reservedOutputTokens?: number;
  /** Head-room for estimation error and anything the count does not see. Default 0.05 (5% of the window). */
  safetyMargin?: number;
  /**
   * When automatic compaction fires: a fraction of the limit or a token count. `0` or `false` disables
   * automatic compaction (manual and overflow compaction still work). Default 0.85.
   */
  trigger?: number | false;
  /** What to compact down to: a fraction of the limit or a token count, below the trigger. Default 0.6. */
  target?: number;
  /** Below this many messages nothing is compacted automatically. Default 4. */
  minimumMessages?: number;
}

/** A resolved budget, in tokens. */
export interface Budget {
  contextWindow: number;
  reservedOutputTokens: number;
  safetyMargin: number;
  /** `contextWindow - reservedOutputTokens - safetyMargin`: no request may count more. */
  limit: number;
  /** Token count at which automatic compaction fires, or `null` when it is disabled. */
  trigger: number | null;
  /** Token count compaction aims for. */
  target: number;
  minimumMessages: number;
}

/** Defaults of {@link BudgetOptions}. */
export const budgetDefaults = {
  reservedOutputTokensShare: 0.25,
  reservedOutputTokensMaximum: 8192,
  safetyMargin: 0.05,
  trigger: 0.85,
  target: 0.6,
  minimumMessages: 4,
} as const;

/** Validates budget options and resolves them to token counts. Throws {@link InvalidOptionsError}. */
export function resolveBudget(options: BudgetOptions): Budget {
  const issues: OptionsIssue[] = [];
  const { contextWindow } = options;
  if (!isPositiveInteger(contextWindow)) {
    throw new InvalidOptionsError({
      subject: 'budget',
      issues: [
        { path: 'contextWindow', message: `must be a positive integer, got ${String(contextWindow)}` },
      ],
    });
  }

  const reservedOutputTokens =
    options.reservedOutputTokens ??
    Math.min(
      budgetDefaults.reservedOutputTokensMaximum,
      Math.floor(contextWindow * budgetDefaults.reservedOutputTokensShare),
    );
  if (!isNonNegativeNumber(reservedOutputTokens)) {
    issues.push({ path: 'reservedOutputTokens', message: 'must be a non-negative number' });
  }
  const safetyMarginOption = options.safetyMargin ?? budgetDefaults.safetyMargin;
  if (!isNonNegativeNumber(safetyMarginOption)) {
    issues.push({ path: 'safetyMargin', message: 'must be a non-negative number' });
  }
  const safetyMargin = Math.ceil(toTokens(safetyMarginOption, contextWindow));
  const limit = contextWindow - reservedOutputTokens - safetyMargin;
  if (issues.length === 0 && limit <= 0) {
    issues.push({
      path: 'contextWindow',
      message: `leaves no room: ${contextWindow} - ${reservedOutputTokens} reserved - ${safetyMargin} margin <= 0`,
    });
  }

  const triggerOption = options.trigger ?? budgetDefaults.trigger;
  let trigger: number | null = null;
  if (triggerOption !== false && triggerOption !== 0) {
    if (!isPositiveNumber(triggerOption)) {
      issues.push({ path: 'trigger', message: 'must be a positive number, 0 or false' });
    } else {
      trigger = Math.floor(toTokens(triggerOption, limit));
      if (trigger > limit)
        issues.push({ path: 'trigger', message: `${trigger} tokens is above the limit ${limit}` });
    }
  }

  const targetOption = options.target ?? budgetDefaults.target;
  let target = 0;
  if (!isPositiveNumber(targetOption)) {
    issues.push({ path: 'target', message: 'must be a positive number' });
  } else {
    target = Math.floor(toTokens(targetOption, limit));
    if (trigger !== null && target >= trigger) {
      issues.push({
        path: 'target',
        message: `${target} tokens must be below the trigger (${trigger}) so compaction does not fire again at once`,
      });
    } else if (target > limit) {
      issues.push({ path: 'target', message: `${target} tokens is above the limit ${limit}` });
    }
  }

  const minimumMessages = options.minimumMessages ?? budgetDefaults.minimumMessages;
  if (!Number.isInteger(minimumMessages) || minimumMessages < 0) {
    issues.push({ path: 'minimumMessages', message: 'must be a non-negative integer' });
  }

  if (issues.length > 0) throw new InvalidOptionsError({ subject: 'budget', issues });
  return { contextWindow, reservedOutputTokens, safetyMargin, limit, trigger, target, minimumMessages };
}

/** A fraction in `(0, 1]` of `whole`, or a token count above 1, as tokens. */
export function toTokens(value: number, whole: number): number {
  return value > 0 && value <= 1 ? value * whole : value;
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}
function isPositiveNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}
function isNonNegativeNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

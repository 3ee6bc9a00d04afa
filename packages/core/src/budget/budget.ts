import { InvalidOptionsError, type OptionsIssue } from '../errors/invalid-options-error.js';
import { type OptionsSchema, validateOptions } from '../options/options-schema.js';

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

/** The JSON Schema of {@link BudgetOptions}, each field on its own; configs publish it too. */
export const budgetSchema: OptionsSchema = {
  type: 'object',
  description: 'Token budget. Numbers in (0, 1] are fractions, numbers above 1 are tokens.',
  properties: {
    contextWindow: field('integer', 'exclusiveMinimum', "The model's context window in tokens."),
    reservedOutputTokens: field('number', 'minimum', "Tokens kept free for the model's answer."),
    safetyMargin: field('number', 'minimum', 'Head-room for estimation error (default 0.05).'),
    trigger: {
      anyOf: [
        { type: 'number', minimum: 0 },
        { type: 'boolean', const: false },
      ],
      description: 'When automatic compaction fires (default 0.85 of the limit); 0 or false disables it.',
    },
    target: field('number', 'exclusiveMinimum', 'What to compact down to (default 0.6 of the limit).'),
    minimumMessages: field('integer', 'minimum', 'Below this many messages nothing is compacted.'),
  },
};

/** A budget field's schema: a number at least (`minimum`) or above (`exclusiveMinimum`) 0. */
function field(type: 'integer' | 'number', bound: 'minimum' | 'exclusiveMinimum', description: string) {
  return { type, [bound]: 0, description } as OptionsSchema;
}

/** Validates budget options and resolves them to token counts. Throws {@link InvalidOptionsError}. */
export function resolveBudget(options: BudgetOptions): Budget {
  validateOptions({ ...budgetSchema, required: ['contextWindow'] }, options, 'budget');
  const {
    contextWindow,
    safetyMargin: margin = 0.05,
    trigger: triggerOption = 0.85,
    target: targetOption = 0.6,
  } = options;
  const reservedOutputTokens = options.reservedOutputTokens ?? Math.min(8192, Math.floor(contextWindow / 4));
  const safetyMargin = Math.ceil(toTokens(margin, contextWindow));
  const limit = contextWindow - reservedOutputTokens - safetyMargin;
  const issues: OptionsIssue[] = [];
  const add = (path: string, message: string) => issues.push({ path, message });
  const reserved = `${reservedOutputTokens} reserved - ${safetyMargin} margin`;
  if (limit <= 0) add('contextWindow', `leaves no room: ${contextWindow} - ${reserved} <= 0`);
  const trigger =
    triggerOption === false || triggerOption === 0 ? null : Math.floor(toTokens(triggerOption, limit));
  if (trigger !== null && trigger > limit) add('trigger', `${trigger} tokens is above the limit ${limit}`);
  const target = Math.floor(toTokens(targetOption, limit));
  if (trigger !== null && target >= trigger) {
    const why = 'so compaction does not fire again at once';
    add('target', `${target} tokens must be below the trigger (${trigger}) ${why}`);
  } else if (target > limit) add('target', `${target} tokens is above the limit ${limit}`);
  if (issues.length > 0) throw new InvalidOptionsError({ subject: 'budget', issues });
  const minimumMessages = options.minimumMessages ?? 4;
  return { contextWindow, reservedOutputTokens, safetyMargin, limit, trigger, target, minimumMessages };
}

/** A fraction in `(0, 1]` of `whole`, or a token count above 1, as tokens. */
export function toTokens(value: number, whole: number): number {
  return value > 0 && value <= 1 ? value * whole : value;
}

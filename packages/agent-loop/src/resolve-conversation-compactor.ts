import {
  type BudgetOptions,
  type Compactor,
  type CompactorSettings,
  createCompactor,
  InvalidOptionsError,
  type TokenEstimator,
} from '@compaction/core';

/**
 * Settings of the compactor a provider's conversation creates for itself: those of `createCompactor`, with
 * the budget optional (the conversation knows the model's window and the request's output limit).
 */
export type ConversationCompaction = Omit<CompactorSettings, 'budget'> & {
  budget?: Partial<BudgetOptions>;
};

/** What {@link resolveConversationCompactor} needs. */
export interface ConversationCompactorSettings {
  /** Names the conversation in the error, such as `Anthropic conversation`. */
  subject: string;
  /** A compactor to use as it is. Give this or `compaction`. */
  compactor?: Compactor | undefined;
  /** Settings of a compactor to create. Give this or `compactor`. */
  compaction?: ConversationCompaction | undefined;
  /** The budget's context window unless `compaction.budget` sets one: the model's. */
  contextWindow: number;
  /** Tokens reserved for the answer unless `compaction.budget` sets them: the request's output limit. */
  reservedOutputTokens?: number | undefined;
  /**
   * The estimator when `compaction` gives neither a counter nor an estimator (one tuned to the model's
   * tokenizer). Default: `createCompactor`'s own.
   */
  defaultEstimator?: () => TokenEstimator | undefined;
}

/**
 * The compactor of a conversation: the one given, or one created from `compaction` with the model's window
 * and the request's output limit as budget defaults. Throws {@link InvalidOptionsError} unless exactly one
 * of `compactor` and `compaction` is given.
 */
export function resolveConversationCompactor(settings: ConversationCompactorSettings): Compactor {
  const { compactor, compaction } = settings;
  if ((compactor === undefined) === (compaction === undefined)) {
    throw new InvalidOptionsError({
      subject: settings.subject,
      issues: [{ path: 'compactor', message: 'give exactly one of `compactor` and `compaction`' }],
    });
  }
  if (compactor !== undefined) return compactor;
  const { budget, ...rest } = compaction!;
  const estimator =
    rest.counter === undefined && rest.estimator === undefined ? settings.defaultEstimator?.() : undefined;
  return createCompactor({
    ...(estimator === undefined ? {} : { estimator }),
    ...rest,
    budget: {
      contextWindow: settings.contextWindow,
      ...(settings.reservedOutputTokens === undefined
        ? {}
        : { reservedOutputTokens: settings.reservedOutputTokens }),
      ...budget,
    },
  });
}

import {
  type BudgetOptions,
  type Compactor,
  type CompactorSettings,
  cl100kProfile,
  createCompactor,
  createFastEstimator,
  InvalidOptionsError,
} from '@compaction/core';
import { defaultOpenAIModelLimits, encodingForModel, findOpenAIModel } from './openai-model-limits.js';

/**
 * Settings of the compactor a conversation creates for itself: those of core's `createCompactor`, with the
 * budget optional. Without a budget, the context window is the model's (from the built-in table) and the
 * request's output limit, when it sets one, is reserved for the answer; without a counter or estimator,
 * tokens are estimated with core's profile of the model's tokenizer (`o200k_base` or `cl100k_base`).
 */
export type OpenAIConversationCompaction = Omit<CompactorSettings, 'budget'> & {
  budget?: Partial<BudgetOptions>;
};

/** How a conversation gets its compactor: one given, or settings to create one. */
export interface OpenAIConversationCompactionSettings {
  /** A compactor to use (share one to share its counter, store and listeners). Give this or `compaction`. */
  compactor?: Compactor;
  /** Settings of a compactor created for this conversation. Give this or `compactor`. */
  compaction?: OpenAIConversationCompaction;
}

/** The compactor of a conversation: the one given, or one created from `compaction` for `model`. */
export function resolveOpenAIConversationCompactor(
  settings: OpenAIConversationCompactionSettings,
  model: string,
  maxOutputTokens: number | undefined,
): Compactor {
  const { compactor, compaction } = settings;
  if ((compactor === undefined) === (compaction === undefined)) {
    throw new InvalidOptionsError({
      subject: 'OpenAI conversation',
      issues: [{ path: 'compactor', message: 'give exactly one of `compactor` and `compaction`' }],
    });
  }
  if (compactor !== undefined) return compactor;
  const { budget, ...rest } = compaction!;
  const limits = findOpenAIModel(model) ?? defaultOpenAIModelLimits;
  const estimator =
    rest.counter === undefined && rest.estimator === undefined && encodingForModel(model) === 'cl100k_base'
      ? { estimator: createFastEstimator({ profile: cl100kProfile }) }
      : {};
  return createCompactor({
    ...estimator,
    ...rest,
    budget: {
      contextWindow: limits.contextWindow,
      ...(maxOutputTokens === undefined ? {} : { reservedOutputTokens: maxOutputTokens }),
      ...budget,
    },
  });
}

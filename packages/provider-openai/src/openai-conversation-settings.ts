import { type ConversationCompaction, resolveConversationCompactor } from '@compaction/agent-loop';
import { type Compactor, createFastEstimator } from '@compaction/core';
import { cl100kProfile, o200kProfile } from '@compaction/token-estimator';
import { defaultOpenAIModelLimits, encodingForModel, findOpenAIModel } from './openai-model-limits.js';

/**
 * Settings of the compactor a conversation creates for itself: those of core's `createCompactor`, with the
 * budget optional. Without a budget, the context window is the model's (from the built-in table) and the
 * request's output limit, when it sets one, is reserved for the answer; without a counter or estimator,
 * tokens are estimated with core's profile of the model's tokenizer (`o200k_base` or `cl100k_base`).
 */
export type OpenAIConversationCompaction = ConversationCompaction;

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
  return resolveConversationCompactor({
    subject: 'OpenAI conversation',
    compactor: settings.compactor,
    compaction: settings.compaction,
    contextWindow: (findOpenAIModel(model) ?? defaultOpenAIModelLimits).contextWindow,
    reservedOutputTokens: maxOutputTokens,
    defaultEstimator: () =>
      createFastEstimator({
        profile: encodingForModel(model) === 'cl100k_base' ? cl100kProfile : o200kProfile,
        media: { provider: 'openai', model },
      }),
  });
}

import type { LanguageModelMiddleware } from 'ai';

/** The options of one provider-level model call (`LanguageModelV3CallOptions`), as a middleware sees them. */
export type LanguageModelCallOptions = Parameters<
  NonNullable<LanguageModelMiddleware['transformParams']>
>[0]['params'];

/** The provider-level prompt (`LanguageModelV3Prompt`): what a middleware's `transformParams` receives. */
export type LanguageModelPrompt = LanguageModelCallOptions['prompt'];

/** One message of a {@link LanguageModelPrompt}. */
export type LanguageModelPromptMessage = LanguageModelPrompt[number];

/** The provider-level model (`LanguageModelV3`) a middleware wraps. */
export type WrappedLanguageModel = Parameters<
  NonNullable<LanguageModelMiddleware['transformParams']>
>[0]['model'];

/** A row of the model table: the standard limits and, where the model has one, its long-context window. */
export type { ModelTableEntry as OpenAIModelEntry } from '@compaction/provider-utils';
export { fromOpenAIChatMessages } from './from-openai-chat-messages.js';
export { convertResponsesItems, fromOpenAIResponsesInput } from './from-openai-responses-input.js';
export type { OpenAIChatPart } from './openai-chat-content-parts.js';
export type {
  OpenAIChatContentPart,
  OpenAIChatMessage,
  OpenAIChatMessageParam,
  OpenAIChatMessagesInput,
  OpenAIChatToolCall,
} from './openai-chat-request.js';
export {
  createOpenAIClient,
  type OpenAIClient,
  type OpenAIClientSettings,
  type OpenAIRequestOptions,
} from './openai-client.js';
export { createOpenAIConversation, OpenAIConversation } from './openai-conversation.js';
export {
  OpenAIConversationBase,
  type OpenAIConversationBaseSettings,
  type OpenAIConversationTypes,
  type OpenAIExchange,
  type OpenAISendOptions,
} from './openai-conversation-base.js';
export type { OpenAIConversationEvents } from './openai-conversation-events.js';
export {
  createOpenAIResponsesConversation,
  OpenAIResponsesConversation,
} from './openai-conversation-responses.js';
export type {
  OpenAIConversationCompaction,
  OpenAIConversationCompactionSettings,
} from './openai-conversation-settings.js';
export type {
  OpenAIChatConversationTypes,
  OpenAIConversationClient,
  OpenAIConversationRequest,
  OpenAIConversationSettings,
  OpenAIRunOptions,
  OpenAIToolResult,
  OpenAIUserInput,
} from './openai-conversation-types.js';
export { toOpenAICompactionError } from './openai-error.js';
export {
  defaultOpenAIModelLimits,
  encodingForModel,
  findOpenAIModel,
  type OpenAIModelId,
  openaiModelTable,
} from './openai-model-limits.js';
export {
  type OpenAIResponsesCompactClient,
  type OpenAIResponsesNativeCompactionSettings,
  openaiResponsesNativeCompaction,
  supportsResponsesCompact,
} from './openai-native-compaction.js';
export { createOpenAIProvider, type OpenAIProvider, type OpenAIProviderSettings } from './openai-provider.js';
export { openaiProviderDefinition, openaiSettingsSchema } from './openai-provider-definition.js';
export type {
  OpenAIResponsesConversationClient,
  OpenAIResponsesConversationRequest,
  OpenAIResponsesConversationSettings,
  OpenAIResponsesConversationTypes,
  OpenAIResponsesRunOptions,
  OpenAIResponsesToolResult,
  OpenAIResponsesUserInput,
} from './openai-responses-conversation-types.js';
export type {
  OpenAIResponsesInput,
  OpenAIResponsesInputLike,
  OpenAIResponsesInputParam,
  OpenAIResponsesItem,
} from './openai-responses-request.js';
export { storedContextFields } from './openai-responses-stored-context.js';
export { type EstimatorLoader, fallbackEstimator, loadTiktokenEstimator } from './openai-token-estimator.js';
export { parseOpenAIContextOverflow } from './parse-openai-context-overflow.js';
export { type ToOpenAIChatMessagesOptions, toOpenAIChatMessages } from './to-openai-chat-messages.js';
export { type ToOpenAIResponsesInputOptions, toOpenAIResponsesInput } from './to-openai-responses-input.js';

import { openaiProviderDefinition } from './openai-provider-definition.js';

/** The provider definition, so a config can name the provider `openai`. */
export default openaiProviderDefinition;

/** A row of the model table: the standard limits and, where the model has one, its long-context window. */
export type { ModelTableEntry as AnthropicModelEntry } from '@compaction/provider-utils';
export {
  type AnthropicClient,
  type AnthropicClientSettings,
  type AnthropicCountTokensBody,
  type AnthropicCreateBody,
  type AnthropicCreateResponse,
  type AnthropicRequestOptions,
  createAnthropicClient,
} from './anthropic-client.js';
export {
  type AnthropicContextEdit,
  type AnthropicContextManagement,
  contextManagementBetas,
} from './anthropic-context-management.js';
export {
  AnthropicConversation,
  type AnthropicRunOptions,
  type AnthropicSendOptions,
  createAnthropicConversation,
} from './anthropic-conversation.js';
export type { AnthropicConversationTypes } from './anthropic-conversation-adapter.js';
export type { AnthropicConversationEvents } from './anthropic-conversation-events.js';
export type {
  AnthropicToolOutput,
  AnthropicToolResult,
  AnthropicUserInput,
} from './anthropic-conversation-messages.js';
export type {
  AnthropicConversationClient,
  AnthropicConversationCompaction,
  AnthropicConversationRequest,
  AnthropicConversationSettings,
} from './anthropic-conversation-settings.js';
export { toAnthropicCompactionError } from './anthropic-error.js';
export {
  type AnthropicModelId,
  anthropicModelTable,
  defaultAnthropicModelLimits,
  findAnthropicModel,
  longContextBeta,
  supportsLongContext,
} from './anthropic-model-limits.js';
export {
  type AnthropicBetaMessagesClient,
  type AnthropicNativeCompactionSettings,
  anthropicNativeCompaction,
  onDemandCompactionBeta,
  onDemandCompactionModels,
} from './anthropic-native-compaction.js';
export {
  type AnthropicProvider,
  type AnthropicProviderSettings,
  createAnthropicProvider,
} from './anthropic-provider.js';
export { anthropicProviderDefinition, anthropicSettingsSchema } from './anthropic-provider-definition.js';
export type {
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicMessagesRequest,
  AnthropicRequest,
  AnthropicRequestInput,
  AnthropicTextBlock,
} from './anthropic-request.js';
export { fromAnthropicRequest } from './from-anthropic-request.js';
export { parseAnthropicContextOverflow } from './parse-anthropic-context-overflow.js';
export {
  defaultFirstUserText,
  type ToAnthropicRequestOptions,
  toAnthropicRequest,
} from './to-anthropic-request.js';

import { anthropicProviderDefinition } from './anthropic-provider-definition.js';

/** The provider definition, so a config can name the provider `anthropic`. */
export default anthropicProviderDefinition;

// Message model

export { type Budget, type BudgetOptions, budgetDefaults, resolveBudget, toTokens } from './budget/budget.js';
export type {
  CompactionEvent,
  CompactionFailure,
  CompactorEvents,
  SkipReason,
} from './compactor/compaction-event.js';
export type {
  BeforeCompactionContext,
  BeforeCompactionDecision,
  CompactionHooks,
} from './compactor/compaction-hooks.js';
// Compactor, events, store
export {
  type CheckResult,
  type CompactionResult,
  type CompactOptions,
  Compactor,
  type CompactorSettings,
  createCompactor,
} from './compactor/compactor.js';
export { EventEmitter } from './compactor/event-emitter.js';
export {
  BudgetUnreachableError,
  type BudgetUnreachableSettings,
  type LegacyBudgetUnreachableSettings,
} from './errors/budget-unreachable-error.js';
export { CompactionAbortedError } from './errors/compaction-aborted-error.js';
// Errors
export { CompactionError, type CompactionErrorCode } from './errors/compaction-error.js';
export { ContextOverflowError } from './errors/context-overflow-error.js';
export { InvalidMessagesError, type MessageIssue } from './errors/invalid-messages-error.js';
export { InvalidOptionsError, type OptionsIssue } from './errors/invalid-options-error.js';
export { ProviderError } from './errors/provider-error.js';
export { ProviderNotFoundError } from './errors/provider-not-found-error.js';
export { RuleViolationError } from './errors/rule-violation-error.js';
export { StrategyFailedError } from './errors/strategy-failed-error.js';
export { StrategyNotFoundError } from './errors/strategy-not-found-error.js';
export type { JSONObject, JSONValue } from './json.js';
export { isJSONValue } from './json.js';
export type { CompactionMessageKind, CompactionMetadata } from './messages/compaction-metadata.js';
export {
  compactionMetadataOf,
  isCompactionProduct,
  isPinned,
  isSummary,
  joinsPrevious,
  pinMessage,
  withCompactionMetadata,
} from './messages/compaction-metadata.js';
export type {
  AssistantMessage,
  FilePart,
  ImagePart,
  Message,
  Metadata,
  Part,
  ReasoningPart,
  Role,
  SystemMessage,
  TextPart,
  ToolCallPart,
  ToolMessage,
  ToolResultContentPart,
  ToolResultPart,
  UserMessage,
} from './messages/message.js';
export { roles } from './messages/message.js';
export {
  firstUserMessageIndex,
  isUserRequest,
  latestUserMessageIndex,
  textOf,
  toolCallsOf,
  toolResultsOf,
} from './messages/message-content.js';
export { findMessageIssues, validateMessages } from './messages/validate-messages.js';
// Registry, options, configs
export { type OptionsSchema, validateOptions } from './options/options-schema.js';
// Provider support: shared pieces of provider adapters
export { contextOverflowOfError } from './provider-support/context-overflow-of-error.js';
export {
  type ConversationCall,
  type ConversationExchange,
  ConversationLoop,
  type ConversationLoopSettings,
} from './provider-support/conversation-loop.js';
export type { ConversationLoopEvents } from './provider-support/conversation-loop-events.js';
export {
  createModelLimitsResolver,
  type ModelLimitsResolverSettings,
} from './provider-support/create-model-limits-resolver.js';
export { findModelEntry, type ModelTableEntry } from './provider-support/find-model-entry.js';
export { frozenCopy } from './provider-support/frozen-copy.js';
export {
  isKeyOrder,
  type KeyOrder,
  keyOrderDifference,
  setField,
  withKeyOrder,
} from './provider-support/key-order.js';
export { type LazyClientSettings, lazyClient } from './provider-support/lazy-client.js';
export {
  type ProviderSettingsSchemaOptions,
  providerSettingsSchema,
} from './provider-support/provider-settings-schema.js';
export {
  type ConversationCompaction,
  type ConversationCompactorSettings,
  resolveConversationCompactor,
} from './provider-support/resolve-conversation-compactor.js';
export {
  type GenerateDefaults,
  resolveGenerateRequest,
} from './provider-support/resolve-generate-request.js';
export {
  createSdkClient,
  type SdkClientSettings,
  type SdkClientSource,
} from './provider-support/sdk-client.js';
export {
  type ProviderErrorMapping,
  toProviderCompactionError,
} from './provider-support/to-provider-compaction-error.js';
export {
  type CompactionConfig,
  compactionConfigSchema,
  parseCompactionConfig,
  type ResolvedCompactionConfig,
  resolveCompactionConfig,
} from './registry/compaction-config.js';
export { createStrategyRegistry } from './registry/create-strategy-registry.js';
export { defineProvider, type ProviderDefinition } from './registry/provider-definition.js';
export {
  createProviderRegistry,
  type ProviderConfig,
  ProviderRegistry,
  type ProviderRegistrySettings,
} from './registry/provider-registry.js';
export {
  type StrategyConfig,
  strategyConfigObject,
  strategyPackageName,
} from './registry/strategy-config.js';
export {
  defineStrategy,
  type StrategyContext,
  type StrategyDefinition,
  type StrategyOptionsByName,
} from './registry/strategy-definition.js';
export {
  isCompactionStrategy,
  type PackageLoader,
  StrategyRegistry,
  type StrategyRegistrySettings,
} from './registry/strategy-registry.js';
// Specs
export type {
  CompactionBudget,
  CompactionBudgetV1,
  CompactionInput,
  CompactionInputV1,
  CompactionOutput,
  CompactionOutputV1,
  CompactionStrategy,
  CompactionStrategyV1,
  CompactionTrigger,
} from './specs/compaction-strategy-v1.js';
export type {
  ContextOverflow,
  ContextOverflowV1,
  CountTokensRequest,
  CountTokensRequestV1,
  GenerateRequest,
  GenerateRequestV1,
  GenerateResult,
  GenerateResultV1,
  ModelLimits,
  ModelLimitsV1,
  Provider,
  ProviderV1,
  TokenCount,
  TokenCountV1,
  Usage,
  UsageV1,
} from './specs/provider-v1.js';
export type { TokenEstimator, TokenEstimatorV1 } from './specs/token-estimator-v1.js';
export type { CompactionRecord, CompactionStore } from './store/compaction-store.js';
export { InMemoryCompactionStore, mergeMetadata } from './store/in-memory-compaction-store.js';
export { createPipeline, type PipelineOptions, pipelineDefinition } from './strategies/pipeline.js';
export {
  type ApproximateEstimatorSettings,
  createApproximateEstimator,
} from './tokens/approximate-estimator.js';
export {
  type CalibrationOptions,
  type CalibrationSample,
  calibrateProfile,
} from './tokens/calibrate-profile.js';
export type { EstimatorProfile } from './tokens/estimator-profile.js';
export { anthropicProfile, cl100kProfile, o200kProfile } from './tokens/estimator-profiles.js';
export { createFastEstimator, type FastEstimatorSettings } from './tokens/fast-estimator.js';
export {
  createMessageEstimator,
  defaultMessageOverhead,
  type MessageEstimatorSettings,
  type MessageOverhead,
} from './tokens/message-estimator.js';
export {
  measureText,
  type TextFeature,
  type TextFeatureWeights,
  textFeatureBonds,
  textFeatureNames,
} from './tokens/text-features.js';
// Tokens and budget
export { type ReportedUsage, TokenCounter } from './tokens/token-counter.js';
// Turns, repair, verification
export { groupTurns, type Turn, turnMessages } from './turns/group-turns.js';
export { mergesAheadOfReasoning } from './turns/reasoning-boundary.js';
export {
  assertValidHistory,
  missingResultText,
  type Repair,
  type RepairOptions,
  type RepairResult,
  repairHistory,
} from './turns/repair-history.js';
export { deepEqual } from './verify/deep-equal.js';
export type { CompactionRule, RuleViolation } from './verify/rule-violation.js';
export { type VerifyCompactionInput, verifyCompaction } from './verify/verify-compaction.js';

// Message model

export { type Budget, type BudgetOptions, resolveBudget } from './budget/budget.js';
export type {
  CompactionErrorSource,
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
  type Compactor,
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
export {
  CompactionError,
  type CompactionErrorCode,
  type CompactionErrorSettings,
} from './errors/compaction-error.js';
export { ContextOverflowError } from './errors/context-overflow-error.js';
export type { DefinitionNotFoundSettings } from './errors/definition-not-found.js';
export { InvalidMessagesError, type MessageIssue } from './errors/invalid-messages-error.js';
export { InvalidOptionsError, type OptionsIssue } from './errors/invalid-options-error.js';
export { PackageLoadError } from './errors/package-load-error.js';
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
export {
  type CompactionConfig,
  compactionConfigSchema,
  parseCompactionConfig,
  type ResolvedCompactionConfig,
  resolveCompactionConfig,
} from './registry/compaction-config.js';
export type { PackageLoader } from './registry/definition-registry.js';
export { defineProvider, type ProviderDefinition } from './registry/provider-definition.js';
export {
  createProviderRegistry,
  type ProviderConfig,
  type ProviderRegistry,
  type ProviderRegistrySettings,
} from './registry/provider-registry.js';
export { defineStrategy } from './registry/strategy-definition.js';
export { strategyPackageName } from './registry/strategy-package-name.js';
export { createStrategyRegistry, type StrategyRegistrySettings } from './registry/strategy-registry.js';
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
export type { StrategyConfig, StrategyOptionsByName } from './specs/strategy-config.js';
export type {
  StrategyContext,
  StrategyContextV1,
  StrategyDefinition,
  StrategyDefinitionV1,
  StrategyRegistry,
  StrategyRegistryV1,
} from './specs/strategy-registry-v1.js';
export type { TokenCounterV1 } from './specs/token-counter-v1.js';
export type { TokenEstimator, TokenEstimatorV1 } from './specs/token-estimator-v1.js';
export type { CompactionRecord, CompactionStore } from './store/compaction-store.js';
export { InMemoryCompactionStore } from './store/in-memory-compaction-store.js';
export { createPipeline, type PipelineOptions } from './strategies/pipeline.js';
export {
  type ApproximateEstimatorSettings,
  createApproximateEstimator,
} from './tokens/approximate-estimator.js';
export { createFastEstimator, type FastEstimatorSettings } from './tokens/fast-estimator.js';
export {
  createMessageEstimator,
  defaultMessageOverhead,
  type MessageEstimatorSettings,
  type MessageOverhead,
} from './tokens/message-estimator.js';
// Tokens and budget
export {
  type AnchoredTokenCounter,
  createTokenCounter,
  type ReportedUsage,
  TokenCounter,
} from './tokens/token-counter.js';
// Turns, repair, verification
export { groupTurns, type Turn, turnMessages } from './turns/group-turns.js';
export { mergesAheadOfReasoning } from './turns/reasoning-boundary.js';
export {
  assertValidHistory,
  type Repair,
  type RepairOptions,
  type RepairResult,
  repairHistory,
} from './turns/repair-history.js';
export { deepEqual } from './verify/deep-equal.js';
export type { CompactionRule, RuleViolation } from './verify/rule-violation.js';
export { type VerifyCompactionInput, verifyCompaction } from './verify/verify-compaction.js';

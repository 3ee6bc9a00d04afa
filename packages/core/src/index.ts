// The contract (message model, specs, errors) and the engine (Compactor, budget, registries, configs, counting,
// repair, verification, the pipeline); types cost a plugin nothing at run time, values are kept few.
export { type Budget, type BudgetOptions, resolveBudget } from './budget/budget.js';
export type { BackgroundSettings } from './compactor/background-settings.js';
export type * from './compactor/compaction-event.js';
export type * from './compactor/compaction-hooks.js';
export type * from './compactor/compaction-step.js';
export {
  type CheckResult,
  type CompactionResult,
  type CompactOptions,
  type Compactor,
  type CompactorSettings,
  createCompactor,
  type RequestSize,
} from './compactor/compactor.js';
export { BudgetUnreachableError, type BudgetUnreachableSettings } from './errors/budget-unreachable-error.js';
export { CompactionAbortedError } from './errors/compaction-aborted-error.js';
export {
  CompactionError,
  type CompactionErrorCode,
  type CompactionErrorSettings,
} from './errors/compaction-error.js';
export { ContextOverflowError } from './errors/context-overflow-error.js';
export type { DefinitionNotFoundError, DefinitionNotFoundSettings } from './errors/definition-not-found.js';
export { InvalidMessagesError, type MessageIssue } from './errors/invalid-messages-error.js';
export { InvalidOptionsError, type OptionsIssue } from './errors/invalid-options-error.js';
export { PackageError, type PackageErrorSettings } from './errors/package-error.js';
export { PackageLoadError } from './errors/package-load-error.js';
export { ProviderError } from './errors/provider-error.js';
export { ProviderNotFoundError } from './errors/provider-not-found-error.js';
export { RuleViolationError } from './errors/rule-violation-error.js';
export { StrategyFailedError } from './errors/strategy-failed-error.js';
export { StrategyNotFoundError } from './errors/strategy-not-found-error.js';
export { isJSONValue, type JSONObject, type JSONValue } from './json.js';
export {
  type CompactionMessageKind,
  type CompactionMetadata,
  compactionMetadataOf,
  isPinned,
  withCompactionMetadata,
} from './messages/compaction-metadata.js';
export type * from './messages/message.js';
export {
  latestUserMessageIndex,
  openingIndexes,
  textOf,
  toolCallsOf,
} from './messages/message-content.js';
export { findMessageIssues } from './messages/validate-messages.js';
export { type OptionsSchema, validateOptions } from './options/options-schema.js';
export {
  type CompactionConfig,
  compactionConfigSchema,
  type ResolvedCompactionConfig,
  resolveCompactionConfig,
  type TriggerPolicyFactory,
} from './registry/compaction-config.js';
export type { PackageLoader } from './registry/definition-registry.js';
export type { ResolveFrom } from './registry/import-from-folders.js';
export type { ProviderDefinition } from './registry/provider-definition.js';
export {
  createProviderRegistry,
  type ProviderConfig,
  type ProviderRegistry,
  type ProviderRegistrySettings,
} from './registry/provider-registry.js';
export { defineStrategy } from './registry/strategy-definition.js';
export { createStrategyRegistry, type StrategyRegistrySettings } from './registry/strategy-registry.js';
export type * from './specs/compaction-strategy-v1.js';
export type * from './specs/compaction-trigger-policy-v1.js';
export type * from './specs/native-compaction-v1.js';
export type * from './specs/provider-v1.js';
export type * from './specs/strategy-config.js';
export type * from './specs/strategy-registry-v1.js';
export type * from './specs/token-counter-v1.js';
export type * from './specs/token-estimator-v1.js';
export type * from './store/compaction-store.js';
export { InMemoryCompactionStore } from './store/in-memory-compaction-store.js';
export { createPipeline, type PipelineOptions } from './strategies/pipeline.js';
export { createFastEstimator, type FastEstimatorSettings } from './tokens/fast-estimator.js';
export {
  createMessageEstimator,
  type MessageEstimatorSettings,
  type MessageOverhead,
} from './tokens/message-estimator.js';
export { type AnchoredTokenCounter, createTokenCounter, type ReportedUsage } from './tokens/token-counter.js';
export { mergesAheadOfReasoning } from './turns/reasoning-boundary.js';
export type * from './turns/repair.js';
export { assertValidHistory, repairHistory } from './turns/repair-history.js';
export { deepEqual } from './verify/deep-equal.js';
export type * from './verify/rule-violation.js';
export { type VerifyCompactionInput, verifyCompaction } from './verify/verify-compaction.js';

export { archivingMaskStrategy } from './archiving-mask-strategy.js';
export {
  assistantMessage,
  codingConversation,
  systemMessage,
  testRunnerLog,
  toolTurn,
  userMessage,
} from './coding-conversation.js';
export { type CodingHistorySettings, generateCodingHistory } from './coding-history.js';
export {
  type ConformancePropertyName,
  type ConformanceSettings,
  checkConformance,
  checkConformanceProperty,
  conformanceProperties,
  defaultConformanceRuns,
  type PropertyOutcome,
} from './conformance.js';
export { latestPlanProblem, planConversationArbitrary, withPlanCalls } from './conformance-plan.js';
export {
  type ConformanceTally,
  describeTally,
  leastCompactedShare,
  tallyShortfall,
} from './conformance-tally.js';
export {
  type ConversationArbitrarySettings,
  conversationArbitrary,
  hugeTextArbitrary,
  malformedConversationArbitrary,
  textArbitrary,
} from './conversation-arbitrary.js';
export {
  type ConversationEventSource,
  type RecordedConversationEvents,
  recordConversationEvents,
} from './conversation-events-recorder.js';
export { deepFreeze } from './deep-freeze.js';
export {
  type HugeResultConversationSettings,
  hugeResultConversationArbitrary,
} from './huge-result-arbitrary.js';
export {
  createMockProvider,
  type MockProvider,
  type MockProviderSettings,
  type ScriptedResponse,
} from './mock-provider.js';
export {
  archivedMarkerRoom,
  type FloorOf,
  markerRoom,
  protectedTokens,
  reachableFloor,
} from './protected-tokens.js';
export {
  checkProviderContractCase,
  checkProviderContracts,
  defaultTargetShares,
  describeProviderContractOutcome,
  type ProviderContractCase,
  type ProviderContractOutcome,
  type ProviderContractSettings,
  type ProviderConverters,
} from './provider-contract-conformance.js';
export { anthropicMessagesRequestArbitrary } from './provider-contracts/anthropic-messages-request-arbitrary.js';
export { anthropicMessagesViolations } from './provider-contracts/anthropic-messages-violations.js';
export {
  compactedRequestViolations,
  type ProviderRequestFormat,
} from './provider-contracts/compacted-request-violations.js';
export type { ContractViolation } from './provider-contracts/contract-violation.js';
export type { JSONRecord } from './provider-contracts/json-record.js';
export { openAIChatRequestArbitrary } from './provider-contracts/openai-chat-request-arbitrary.js';
export { openAIChatViolations } from './provider-contracts/openai-chat-violations.js';
export { openAIResponsesRequestArbitrary } from './provider-contracts/openai-responses-request-arbitrary.js';
export { openAIResponsesViolations } from './provider-contracts/openai-responses-violations.js';
export type { ProviderRequestArbitrarySettings } from './provider-contracts/provider-request-arbitrary-settings.js';
export { expectedRecalls } from './recall-expectations.js';
export { type RecallRound, type RecallRoundInput, recallRoundTrip } from './recall-round-trip.js';
export { nextRecallStep, type RecallScriptStep } from './recall-script.js';
export { oddlyChanged, replaceSomewhere } from './replace-somewhere.js';
export { type ResolvedProviderConfig, resolveProviderConfig } from './resolve-provider-config.js';
export {
  allowedShortfall,
  checkTargetFill,
  defaultTargetFillRuns,
  type TargetFillRun,
  type TargetFillSettings,
} from './target-fill-property.js';

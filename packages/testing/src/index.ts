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
export { type ResolvedProviderConfig, resolveProviderConfig } from './resolve-provider-config.js';
export {
  allowedShortfall,
  checkTargetFill,
  type FloorOf,
  protectedTokens,
  type TargetFillRun,
  type TargetFillSettings,
} from './target-fill-property.js';

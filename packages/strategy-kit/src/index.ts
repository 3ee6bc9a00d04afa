export { archivedChanges } from './archive-changes.js';
export {
  archivedToolInput,
  archivedToolResult,
  archiveItem,
  costliestRecallHint,
  recallHandlesIn,
  recallHint,
} from './archive-item.js';
export {
  type AssembledWithinLimit,
  assembleWithinLimit,
  type KeptTurnsSelection,
  keptTurnsOutput,
  protectedOverLimit,
} from './assemble-within-limit.js';
export {
  type CacheAwareTrigger,
  type CacheAwareTriggerOptions,
  createCacheAwareTrigger,
} from './cost/cache-aware-trigger.js';
export {
  type CacheAwareTriggerConfig,
  cacheAwareTriggerConfigSchema,
  cacheAwareTriggerFromConfig,
} from './cost/cache-aware-trigger-config.js';
export {
  type AnthropicCacheLifetime,
  anthropicCacheModel,
  type CacheModel,
  cacheModelFor,
  openaiCacheModel,
} from './cost/cache-model.js';
export { firstUserMessageIndex } from './first-user-message-index.js';
export { fitToRoom, type Measured } from './fit-to-room.js';
export { groupTurns, type Turn } from './group-turns.js';
export { isSummary, isSummaryPart } from './is-summary.js';
export { keepTaskWhenItReturns } from './keep-returning-task.js';
export {
  type AssembledHistory,
  archivedMessages,
  assembleKeptTurns,
  type RemovalMarkerSettings,
  removalMarker,
  removalMarkerCost,
} from './kept-turns.js';
export { renderArchivedMessages, toolResultText } from './render-archived-messages.js';
export { separateJoinedSummaries } from './separate-joined-summaries.js';
export {
  isShortenedPart,
  originalResultHint,
  shortenedPartMetadata,
  shortenToolResult,
  toolResultCharacters,
  withShortenedOutput,
} from './shorten-tool-result.js';
export { fillRoomWithTurn, type ShortenMarks, shortenTurn, wholeTurnSlack } from './shorten-turn.js';
export {
  shortenToolResultToTokens,
  type ToolResultSize,
  toolResultSizes,
  truncationNoteCost,
  truncationNoteTokens,
} from './tool-result-sizes.js';
export { truncateText } from './truncate-text.js';
export { countTurn, keepUserTurnFirst, planTurns, type TurnPlan } from './turn-plan.js';
export {
  createWholeTurnsStrategy,
  keepChosenTurns,
  nothingRemovedOutput,
  type TurnChoice,
  type WholeTurnsSettings,
  type WholeTurnsStart,
} from './whole-turns.js';

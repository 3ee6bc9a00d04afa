export {
  AgentConversation,
  type AgentConversationSettings,
  type ConversationRunOptions,
  type ConversationSendOptions,
} from './agent-conversation.js';
export { answersOfResults } from './answers-of-results.js';
export {
  type CompactedCall,
  type CompactedCallSettings,
  callWithCompaction,
} from './call-with-compaction.js';
export { checkAnswers } from './check-answers.js';
export {
  CompactToolInLoop,
  type CompactToolInLoopSettings,
  compactToolDescription,
  compactToolInputSchema,
  compactToolName,
  compactToolResultText,
} from './compact-tool-in-loop.js';
export type {
  AdapterExchange,
  AgentConversationTypes,
  ConversationAdapter,
  ConversationVocabulary,
  ItemAnswers,
  LoopToolDefinition,
  NoteWire,
  RecallDefinition,
  RecallWire,
} from './conversation-adapter.js';
export {
  type ConversationCall,
  type ConversationExchange,
  ConversationLoop,
  type ConversationLoopSettings,
} from './conversation-loop.js';
export type { ConversationLoopEvents } from './conversation-loop-events.js';
export { fromNativeCompaction, type IsNativeCompactionPart } from './native-compaction-start.js';
export {
  type NoteBeforeCompaction,
  type NoteTurn,
  noteBeforeCompactionPrompt,
  notePrefix,
  type ResolvedNoteBeforeCompaction,
  resolveNoteBeforeCompaction,
  runNoteTurn,
  withTimeout,
} from './note-before-compaction.js';
export { NoteTimeoutError } from './note-timeout-error.js';
export {
  maximumOverflowRetries,
  type OverflowCompactionSettings,
  overflowCompactOptions,
  overflowOf,
  retryCut,
  sizedOverflow,
  statedSizeBound,
} from './overflow-policy.js';
export {
  type OverflowAttempt,
  OverflowRetriesExhaustedError,
} from './overflow-retries-exhausted-error.js';
export {
  parseToolArguments,
  RecallInLoop,
  type RecallInLoopSettings,
} from './recall-in-loop.js';
export {
  type ConversationCompaction,
  type ConversationCompactorSettings,
  resolveConversationCompactor,
} from './resolve-conversation-compactor.js';

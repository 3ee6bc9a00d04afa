export type {
  LanguageModelCallOptions,
  LanguageModelPrompt,
  LanguageModelPromptMessage,
  WrappedLanguageModel,
} from './ai-sdk-types.js';
export {
  fromAiSdk,
  fromLanguageModelPrompt,
  toAiSdk,
  toLanguageModelPrompt,
} from './convert/ai-sdk-messages.js';
export type { DataKind } from './convert/data-content.js';
export { aiSdkMetadataKey, compactionOptionsKey } from './convert/metadata-slot.js';
export { deniedText } from './convert/tool-result-output.js';
export { type CompactRequest, CompactRequests } from './integration/compaction-compact-tool.js';
export { type CompactionMiddleware, compactionMiddleware } from './integration/compaction-middleware.js';
export type { CompactionNoteEvent, CompactionNoteSettings } from './integration/compaction-note.js';
export {
  type CompactionPrepareStep,
  compactionPrepareStep,
  type PrepareStepInput,
} from './integration/compaction-prepare-step.js';
export { compactionRecallTool } from './integration/compaction-recall-tool.js';
export {
  type CompactionIntegrationOptions,
  type CompactionIntegrationSettings,
  resolveCompactionSettings,
} from './integration/compaction-settings.js';
export { parseContextOverflow } from './integration/parse-context-overflow.js';

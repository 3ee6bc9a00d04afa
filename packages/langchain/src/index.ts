export { fromLangChain, toLangChain } from './convert/langchain-messages.js';
export {
  compactionKwargsKey,
  compactionMetadataKwargsKey,
  langChainMetadataKey,
} from './convert/langchain-slot.js';
export { type CompactMessagesOptions, compactMessages } from './integration/compact-messages.js';
export { type CompactionMiddleware, compactionMiddleware } from './integration/compaction-middleware.js';
export {
  type CompactionRecallToolSettings,
  compactionRecallTool,
} from './integration/compaction-recall-tool.js';
export type {
  LangChainCompactionOptions,
  LangChainCompactionSettings,
  LangChainCompactorSettings,
  StrategySetting,
} from './integration/compaction-settings.js';
export { parseContextOverflow } from './integration/parse-context-overflow.js';

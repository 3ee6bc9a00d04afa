export { fromMastra, fromMastraMessage } from './convert/from-mastra.js';
export { type MastraEnvelope, type MastraMessageMark, mastraMetadataKey } from './convert/mastra-metadata.js';
export { type ToMastraSettings, toMastra, toMastraMessages } from './convert/to-mastra.js';
export {
  type CompactionInputProcessor,
  compactionInputProcessor,
} from './integration/compaction-input-processor.js';
export { CompactionMemoryProcessor } from './integration/compaction-memory-processor.js';
export { compactionRecallTool } from './integration/compaction-recall-tool.js';
export {
  type CompactionProcessorOptions,
  type CompactionProcessorSettings,
  type CompactorSettingsByName,
  resolveCompactor,
  type StrategySetting,
} from './integration/compaction-settings.js';
export type { MastraContent, MastraMessage, MastraPart } from './mastra-types.js';

export { fromAgentItems, toAgentItems } from './agent-items.js';
export { type CompactingSession, compactingModel } from './compacting-model.js';
export { compactionRecallTool, type RecallToolParameters } from './compaction-recall-tool.js';
export { CompactionSession, type PreparedItems } from './compaction-session.js';
export type { CompactionSessionOptions, CompactionSessionSettings } from './compaction-session-settings.js';
export {
  type CreateCompactionSessionSettings,
  createCompactionSession,
  type StrategyChoice,
} from './create-compaction-session.js';

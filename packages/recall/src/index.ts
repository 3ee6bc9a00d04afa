export type { RecallRequest, RecallSearchRequest, RecallToolInput } from './recall-request.js';
export {
  createRecallTool,
  type RecallAnswer,
  type RecallTool,
  type RecallToolSettings,
} from './recall-tool.js';

export { anthropicServerToolResultTypes } from './anthropic-server-tool-result-types.js';
export {
  assistantParts,
  type ClaudeCodeContentBlock,
  partToBlock,
  toolResultPart,
  updatedBlock,
  userParts,
} from './claude-code-blocks.js';
export { claudeCodeToMessages, isToolResult } from './claude-code-messages.js';

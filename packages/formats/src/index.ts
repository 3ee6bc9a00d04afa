export { anthropicFormat } from './anthropic-format.js';
export { checkMessageNesting, checkNesting } from './check-nesting.js';
export { anthropicServerToolResultTypes } from './claude-code/anthropic-server-tool-result-types.js';
export {
  assistantParts,
  type ClaudeCodeContentBlock,
  isToolResult,
  partToBlock,
  toolResultPart,
  updatedBlock,
  userParts,
} from './claude-code/claude-code-blocks.js';
export { claudeCodeFormat, looksLikeJsonLines } from './claude-code/claude-code-format.js';
export { claudeCodeToMessages } from './claude-code/claude-code-messages.js';
export {
  type Conversation,
  type ConversationFormat,
  type FormatName,
  formatNames,
  isRecord,
} from './conversation-format.js';
export { coreFormat } from './core-format.js';
export { detectFormat, detectFormatOf, type FormatDetection } from './detect-format.js';
export { FormatError, type FormatErrorReason } from './format-error.js';
export { formats } from './formats.js';
export {
  describeExcessiveNesting,
  type ExcessiveNesting,
  findExcessiveNesting,
  findExcessiveNestingInJsonText,
  maxJsonDepth,
} from './json-depth.js';
export {
  firstJsonErrorOffset,
  locationOf,
  parseJsonWithLocation,
  type TextLocation,
} from './json-location.js';
export {
  type AnthropicConverters,
  loadAnthropicConverters,
  loadOpenAIConverters,
  loadProviderPackage,
  type OpenAIConverters,
  type ProviderPackageName,
} from './load-converters.js';
export { openAIChatFormat } from './openai-chat-format.js';
export { openAIResponsesFormat } from './openai-responses-format.js';
export {
  decodeText,
  parseConversation,
  readConversation,
  readInputBytes,
  readJsonConversation,
  readStdin,
} from './read-conversation.js';
export { convert } from './request-format.js';
export { requestOverheadTokens } from './request-overhead.js';
export { storedContextField, withStoredContext } from './stored-context.js';

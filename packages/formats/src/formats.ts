import { anthropicFormat } from './anthropic-format.js';
import { claudeCodeFormat } from './claude-code/claude-code-format.js';
import type { ConversationFormat, FormatName } from './conversation-format.js';
import { coreFormat } from './core-format.js';
import { openAIChatFormat } from './openai-chat-format.js';
import { openAIResponsesFormat } from './openai-responses-format.js';

/** Every format, by name. */
export const formats: Record<FormatName, ConversationFormat> = {
  core: coreFormat,
  anthropic: anthropicFormat,
  'openai-chat': openAIChatFormat,
  'openai-responses': openAIResponsesFormat,
  'claude-code': claudeCodeFormat,
};

import { findMessageIssues } from '@compaction/core';
import { anthropicServerToolResultTypes } from './claude-code/anthropic-server-tool-result-types.js';
import { type FormatName, isRecord } from './conversation-format.js';

/**
 * How the format of a JSON input is decided (documented in docs/cli.md, "Format detection"). `--from` skips
 * all of it.
 *
 * 1. An object with `input` (a list or a string) and no `messages` is an OpenAI Responses request.
 * 2. Otherwise the messages (an object's `messages`, or the bare list) and the request's own fields are
 *    searched for clues that only one format has (the tables below, taken from the SDKs' request types):
 *    core part types, Anthropic content blocks and request fields, OpenAI Chat roles, message fields, content
 *    parts and request fields, Responses item types and content parts.
 * 3. Clues of exactly one format decide. Clues of two formats are a conflict: the input is refused with both
 *    clues named, and `--from` picks.
 * 4. Without clues (plain `{role, content}` messages, text only), a request's model name decides
 *    (`claude-…` Anthropic; `gpt-…`, `o1…`, `chatgpt-…` OpenAI Chat); then `max_tokens` (required by
 *    Anthropic, optional in Chat) means Anthropic; then messages that are valid core are core; plain
 *    messages (roles system, developer, user, assistant) are OpenAI Chat; anything else is read as core, whose
 *    validation says what is wrong.
 *    Such a conversation reads the same in every format, and with nothing to compact it is written back
 *    byte for byte whichever format was picked.
 */
export interface FormatDetection {
  /** The format, or `undefined` when none fits or clues conflict. */
  format: FormatName | undefined;
  /** Why: the clue that decided, or the conflicting clues. */
  reason: string;
  /** Set when clues of two formats were found. */
  conflict?: boolean;
}

type Family = 'core' | 'anthropic' | 'openai-chat' | 'openai-responses';

/** Content block types only the Anthropic Messages API has (`ContentBlockParam` and its beta siblings). */
const anthropicBlockTypes = new Set([
  'document',
  'search_result',
  'thinking',
  'redacted_thinking',
  'tool_use',
  'tool_result',
  'server_tool_use',
  ...anthropicServerToolResultTypes,
  'tool_reference',
  'container_upload',
  'mcp_tool_use',
  'mcp_tool_result',
]);

/** Request fields only the Anthropic Messages API has (`MessageCreateParams`). */
const anthropicRequestFields = [
  'system',
  'stop_sequences',
  'thinking',
  'top_k',
  'container',
  'mcp_servers',
  'context_management',
  'output_config',
  'inference_geo',
  'cache_control',
  'diagnostics',
  'speed',
  'user_profile_id',
  'workspace_id',
];

/** Request fields only OpenAI Chat Completions has (`ChatCompletionCreateParams`). */
const chatRequestFields = [
  'audio',
  'frequency_penalty',
  'function_call',
  'functions',
  'logit_bias',
  'logprobs',
  'max_completion_tokens',
  'modalities',
  'moderation',
  'n',
  'parallel_tool_calls',
  'prediction',
  'presence_penalty',
  'prompt_cache_key',
  'prompt_cache_options',
  'prompt_cache_retention',
  'reasoning_effort',
  'response_format',
  'safety_identifier',
  'seed',
  'stop',
  'store',
  'stream_options',
  'top_logprobs',
  'user',
  'verbosity',
  'web_search_options',
];

/**
 * Chat message roles the other formats lack: `system` and `developer` are shared with Anthropic's messages and
 * Responses, and `tool` with core (a Chat tool message is told by its `tool_call_id`).
 */
const chatOnlyRoles = new Set(['function']);
/** Chat message fields the other formats lack. */
const chatMessageFields = ['tool_calls', 'tool_call_id', 'function_call', 'name', 'refusal', 'audio'];
/** Chat content part types the other formats lack. */
const chatPartTypes = new Set(['image_url', 'input_audio']);
/** Responses content part types. */
const responsesPartTypes = new Set(['input_text', 'input_image', 'input_file', 'output_text']);
/** Core part types the provider formats lack. */
const corePartTypes = new Set(['tool-call', 'tool-result', 'reasoning']);

/** Recognises the format of a parsed JSON input, or returns `undefined` (see {@link detectFormatOf}). */
export function detectFormat(value: unknown): FormatName | undefined {
  return detectFormatOf(value).format;
}

/** Decides the format of a parsed JSON input, and says why, by the rules of {@link FormatDetection}. */
export function detectFormatOf(value: unknown): FormatDetection {
  if (isRecord(value) && value.messages === undefined) {
    if (Array.isArray(value.input) || typeof value.input === 'string') {
      return { format: 'openai-responses', reason: 'an "input" field' };
    }
    return { format: undefined, reason: 'no "messages" or "input" field' };
  }
  const request = isRecord(value) ? value : undefined;
  const messages = request === undefined ? value : request.messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    return { format: undefined, reason: 'no messages' };
  }
  const clues = new Map<Family, string>();
  const note = (family: Family, clue: string | undefined) => {
    if (clue !== undefined && !clues.has(family)) clues.set(family, clue);
  };
  for (const [index, message] of messages.entries()) {
    for (const [family, clue] of messageClues(message, request === undefined))
      note(family, `messages[${index}] has ${clue}`);
  }
  if (request !== undefined) for (const [family, clue] of requestClues(request)) note(family, clue);

  const [only] = clues;
  if (clues.size === 1 && only !== undefined) return { format: only[0], reason: only[1] };
  if (clues.size > 1) {
    const named = [...clues].map(([family, clue]) => `${clue} (${family})`).join(' and ');
    return { format: undefined, reason: `clues of several formats: ${named}`, conflict: true };
  }
  // No clues: a provider request says which API it is for by its model or by `max_tokens`.
  const model = request?.model;
  if (typeof model === 'string') {
    if (/^claude-/i.test(model)) return { format: 'anthropic', reason: `the model "${model}"` };
    if (/^(gpt-|o\d|chatgpt-)/i.test(model)) return { format: 'openai-chat', reason: `the model "${model}"` };
  }
  if (request?.max_tokens !== undefined) {
    return { format: 'anthropic', reason: '"max_tokens" (required by Anthropic, optional in Chat)' };
  }
  if (findMessageIssues(messages).length === 0) return { format: 'core', reason: 'valid core messages' };
  if (messages.every(isPlainMessage))
    return { format: 'openai-chat', reason: 'plain role and content messages' };
  return { format: undefined, reason: 'messages of no known format' };
}

/** A `{role, content}` message every format has: a known role, and a text or a list of parts. */
function isPlainMessage(message: unknown): boolean {
  return (
    isRecord(message) &&
    typeof message.role === 'string' &&
    ['system', 'developer', 'user', 'assistant'].includes(message.role) &&
    (typeof message.content === 'string' || Array.isArray(message.content))
  );
}

/** Clues in one message (or, in a bare list, one Responses item). */
function messageClues(message: unknown, bareList: boolean): Array<[Family, string]> {
  if (!isRecord(message)) return [];
  const clues: Array<[Family, string]> = [];
  if (
    typeof message.type === 'string' ||
    (bareList && message.role === undefined && typeof message.id === 'string')
  ) {
    // Chat, Anthropic and core messages have no `type`; Responses items do (or are a bare `{id}` reference).
    clues.push(['openai-responses', `a "${String(message.type ?? 'item_reference')}" item`]);
  }
  if (message.type === undefined) {
    // Fields of Chat messages; Responses items (which have a `type`) use some of the same names.
    if (typeof message.role === 'string' && chatOnlyRoles.has(message.role)) {
      clues.push(['openai-chat', `the role "${message.role}"`]);
    }
    const field = chatMessageFields.find((name) => message[name] !== undefined);
    if (field !== undefined) clues.push(['openai-chat', `a "${field}" field`]);
    if (message.content === null) clues.push(['openai-chat', 'a null content']);
  }
  if (isRecord(message.metadata)) clues.push(['core', 'a "metadata" object']);
  if (Array.isArray(message.content)) {
    for (const part of message.content) {
      const clue = partClue(part);
      if (clue !== undefined) {
        clues.push(clue);
        break;
      }
    }
  }
  return clues;
}

function partClue(part: unknown): [Family, string] | undefined {
  if (!isRecord(part) || typeof part.type !== 'string') return undefined;
  const { type } = part;
  const block = `a "${type}" part`;
  if (corePartTypes.has(type)) return ['core', block];
  if (anthropicBlockTypes.has(type)) return ['anthropic', block];
  if (chatPartTypes.has(type)) return ['openai-chat', block];
  if (responsesPartTypes.has(type)) return ['openai-responses', block];
  if (type === 'image') {
    if (isRecord(part.source)) return ['anthropic', 'an "image" block with a "source"'];
    if (typeof part.image === 'string') return ['core', 'an "image" part with an "image" field'];
  }
  if (type === 'file') {
    if (isRecord(part.file)) return ['openai-chat', 'a "file" part with a "file" object'];
    if (typeof part.data === 'string' && typeof part.mediaType === 'string')
      return ['core', 'a core "file" part'];
  }
  if (type === 'text' && (part.cache_control !== undefined || part.citations !== undefined)) {
    return [
      'anthropic',
      `a text block with "${part.cache_control === undefined ? 'citations' : 'cache_control'}"`,
    ];
  }
  return undefined;
}

/** Clues in a request's own fields: fields one API alone has, and the shapes of `tools` and `tool_choice`. */
function requestClues(request: Record<string, unknown>): Array<[Family, string]> {
  const clues: Array<[Family, string]> = [];
  const anthropic = anthropicRequestFields.find((name) => request[name] !== undefined);
  if (anthropic !== undefined) clues.push(['anthropic', `the request field "${anthropic}"`]);
  const chat = chatRequestFields.find((name) => request[name] !== undefined);
  if (chat !== undefined) clues.push(['openai-chat', `the request field "${chat}"`]);
  if (Array.isArray(request.tools)) {
    for (const tool of request.tools) {
      if (!isRecord(tool)) continue;
      if (tool.input_schema !== undefined) clues.push(['anthropic', 'a tool with "input_schema"']);
      else if (typeof tool.type === 'string' && /_\d{8}$/.test(tool.type)) {
        clues.push(['anthropic', `the server tool "${tool.type}"`]);
      } else if (isRecord(tool.function) || isRecord(tool.custom)) {
        clues.push(['openai-chat', `a "${tool.type}" tool`]);
      }
    }
  }
  const choice = request.tool_choice;
  if (typeof choice === 'string') clues.push(['openai-chat', `the tool_choice "${choice}"`]);
  else if (isRecord(choice) && typeof choice.type === 'string') {
    const anthropicChoice = ['auto', 'any', 'tool', 'none'].includes(choice.type);
    clues.push([anthropicChoice ? 'anthropic' : 'openai-chat', `a tool_choice of type "${choice.type}"`]);
  }
  return clues;
}

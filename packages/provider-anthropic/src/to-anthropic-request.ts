import {
  InvalidMessagesError,
  type JSONObject,
  type Message,
  type MessageIssue,
  type ToolCallPart,
  type ToolResultContentPart,
  type ToolResultPart,
} from '@compaction/core';
import { type AnthropicBlockPart, partToBlock, verbatimBlockKey } from './anthropic-content-blocks.js';
import { anthropicMetadataOf, isObject, storedFields } from './anthropic-metadata.js';
import type {
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicMessagesRequest,
  AnthropicRequest,
  AnthropicTextBlock,
} from './anthropic-request.js';
import { newTurnMarker, noContentMarker, stringContentMarker } from './from-anthropic-request.js';

/** Options of {@link toAnthropicRequest}. */
export interface ToAnthropicRequestOptions {
  /**
   * Text of the user turn inserted when the conversation would start with an assistant turn (the Messages API
   * requires a user turn first). Default `'[Earlier conversation omitted.]'`; `false` throws
   * `InvalidMessagesError` instead.
   */
  firstUserText?: string | false;
}

/** The text of the user turn inserted before a conversation that starts with the assistant. */
export const defaultFirstUserText = '[Earlier conversation omitted.]';

interface Turn {
  role: 'user' | 'assistant';
  blocks: AnthropicContentBlock[];
  /** Core messages the turn came from, with their indexes. */
  sources: Array<{ message: Message; index: number }>;
  /** Parts dropped because Anthropic cannot take them (reasoning without a signature). */
  dropped: number;
}

/**
 * Converts core messages to the conversation of an Anthropic Messages request, the inverse of
 * {@link fromAnthropicRequest}. The result is valid for the Messages API:
 *
 * - leading system messages become `system`; a system message later in the conversation becomes text in a
 *   user turn (the API has no mid-conversation system role);
 * - `tool` messages become `tool_result` blocks in a user turn; consecutive messages that map to the same
 *   role are merged into one turn (unless they were separate turns in the request they came from);
 * - reasoning without a signature (from another provider) is dropped, since the API rejects it, and a turn
 *   left empty by that is dropped;
 * - a conversation that would start with an assistant turn gets a short user turn first (see
 *   {@link ToAnthropicRequestOptions.firstUserText}).
 *
 * Throws {@link InvalidMessagesError} for what cannot be repaired without losing meaning: a tool result
 * whose call is not in the assistant turn before it, a call without a result before the next assistant
 * turn, a tool input that is not a JSON object, a file in an assistant message. Run core's `repairHistory`
 * first to fix tool pairing.
 */
export function toAnthropicRequest(
  messages: Message[],
  options: ToAnthropicRequestOptions = {},
): AnthropicMessagesRequest {
  const issues: MessageIssue[] = [];
  let start = 0;
  const systemMessages: Message[] = [];
  while (start < messages.length && messages[start]!.role === 'system')
    systemMessages.push(messages[start++]!);

  const turns: Turn[] = [];
  for (let index = start; index < messages.length; index++) {
    const message = messages[index]!;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const previous = turns.at(-1);
    const separate = anthropicMetadataOf(message)?.[newTurnMarker] === true;
    const turn: Turn =
      previous !== undefined && previous.role === role && !separate
        ? previous
        : { role, blocks: [], sources: [], dropped: 0 };
    if (turn !== previous) turns.push(turn);
    turn.sources.push({ message, index });
    for (const [partIndex, part] of message.content.entries()) {
      const block = partBlock(part, message, (path, text) =>
        issues.push({ index, path: `content[${partIndex}]${path}`, message: text }),
      );
      if (block === undefined) turn.dropped++;
      else turn.blocks.push(block);
    }
  }
  if (issues.length > 0) throw new InvalidMessagesError({ issues });

  const kept = turns.filter((turn) => turn.blocks.length > 0 || turn.dropped === 0);
  const firstUserText = options.firstUserText ?? defaultFirstUserText;
  if (kept[0]?.role === 'assistant') {
    if (firstUserText === false) {
      throw new InvalidMessagesError({
        issues: [
          {
            index: kept[0].sources[0]!.index,
            path: 'role',
            message: 'the conversation must start with a user turn',
          },
        ],
      });
    }
    kept.unshift({ role: 'user', blocks: [{ type: 'text', text: firstUserText }], sources: [], dropped: 0 });
  }
  checkToolPairing(kept);

  const request: AnthropicRequest = { messages: kept.map(toMessage) };
  const system = systemOf(systemMessages);
  if (system !== undefined) request.system = system;
  // Blocks are built from core parts and kept fields, in the API's own shapes.
  return request as unknown as AnthropicMessagesRequest;
}

function partBlock(
  part: Message['content'][number],
  message: Message,
  report: (path: string, text: string) => void,
): AnthropicContentBlock | undefined {
  switch (part.type) {
    case 'tool-call':
      return toolUseBlock(part, report);
    case 'tool-result':
      return toolResultBlock(part);
    case 'reasoning':
      if (message.role !== 'assistant') return partToBlock(part);
      if (part.redactedData === undefined && part.signature === undefined && !hasVerbatim(part))
        return undefined;
      return partToBlock(part);
    case 'file':
      if (message.role === 'assistant' && !hasVerbatim(part)) {
        report('', 'Anthropic assistant messages cannot carry files');
        return undefined;
      }
      return partToBlock(part);
    default:
      return partToBlock(part as AnthropicBlockPart);
  }
}

function toolUseBlock(
  part: ToolCallPart,
  report: (path: string, text: string) => void,
): AnthropicContentBlock {
  if (!isObject(part.input)) report('.input', 'Anthropic tool inputs must be JSON objects');
  return {
    type: 'tool_use',
    id: part.toolCallId,
    name: part.toolName,
    input: part.input,
    ...storedFields(part),
  };
}

function toolResultBlock(part: ToolResultPart): AnthropicContentBlock {
  const verbatim = anthropicMetadataOf(part)?.[verbatimBlockKey];
  if (isObject(verbatim) && verbatim.type === 'tool_result') return verbatim as AnthropicContentBlock;
  const omitContent = anthropicMetadataOf(part)?.[noContentMarker] === true && part.output === '';
  const content =
    typeof part.output === 'string'
      ? part.output
      : part.output.map((item: ToolResultContentPart) => partToBlock(item));
  return {
    type: 'tool_result',
    tool_use_id: part.toolCallId,
    ...(omitContent ? {} : { content }),
    ...(part.isError === undefined ? {} : { is_error: part.isError }),
    ...storedFields(part, [noContentMarker]),
  };
}

function hasVerbatim(part: { metadata?: JSONObject }): boolean {
  return anthropicMetadataOf(part)?.[verbatimBlockKey] !== undefined;
}

function toMessage(turn: Turn): AnthropicMessage {
  const only = turn.sources.length === 1 ? turn.sources[0]!.message : undefined;
  const single = turn.blocks.length === 1 ? turn.blocks[0]! : undefined;
  if (
    only !== undefined &&
    anthropicMetadataOf(only)?.[stringContentMarker] === 'string' &&
    single?.type === 'text' &&
    Object.keys(single).length === 2
  ) {
    return { role: turn.role, content: single.text as string };
  }
  return { role: turn.role, content: turn.blocks };
}

function systemOf(messages: Message[]): AnthropicRequest['system'] {
  if (messages.length === 0) return undefined;
  const blocks = messages.flatMap((message) =>
    message.content.map((part) => partToBlock(part as AnthropicBlockPart) as AnthropicTextBlock),
  );
  const only = messages.length === 1 ? messages[0]! : undefined;
  const single = blocks.length === 1 ? blocks[0]! : undefined;
  if (
    only !== undefined &&
    anthropicMetadataOf(only)?.[stringContentMarker] === 'string' &&
    single?.type === 'text' &&
    Object.keys(single).length === 2
  ) {
    return single.text;
  }
  return blocks;
}

/** Every tool result answers a call of the assistant turn before it; every call is answered before the next. */
function checkToolPairing(turns: Turn[]): void {
  const issues: MessageIssue[] = [];
  let pending = new Set<string>();
  let pendingSource = -1;
  let callsOfLastAssistant = new Set<string>();
  for (const turn of turns) {
    const firstIndex = turn.sources[0]?.index ?? -1;
    if (turn.role === 'assistant') {
      if (pending.size > 0) {
        issues.push({
          index: pendingSource,
          path: 'content',
          message: `tool call(s) ${[...pending].join(', ')} have no tool_result before the next assistant turn`,
        });
      }
      callsOfLastAssistant = new Set(
        turn.blocks.filter((block) => block.type === 'tool_use').map((block) => block.id as string),
      );
      pending = new Set(callsOfLastAssistant);
      pendingSource = firstIndex;
      continue;
    }
    for (const block of turn.blocks) {
      if (block.type !== 'tool_result') continue;
      const id = block.tool_use_id as string;
      if (!callsOfLastAssistant.has(id)) {
        issues.push({
          index: firstIndex,
          path: 'content',
          message: `tool_result ${id} does not answer a tool_use of the assistant turn before it`,
        });
      }
      pending.delete(id);
    }
  }
  if (issues.length > 0) throw new InvalidMessagesError({ issues });
}

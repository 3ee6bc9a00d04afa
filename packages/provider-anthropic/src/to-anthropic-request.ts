import { InvalidMessagesError, type Message, type MessageIssue } from '@compaction/core';
import { anthropicMarkers } from './anthropic-markers.js';
import { anthropicMetadataOf } from './anthropic-metadata.js';
import type { AnthropicMessagesRequest, AnthropicRequest } from './anthropic-request.js';
import {
  type AnthropicRole,
  type AnthropicTurn,
  addToTurn,
  roleInMessages,
  systemParameter,
  turnMessage,
} from './anthropic-turn.js';

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

/**
 * Converts core messages to the conversation of an Anthropic Messages request, the inverse of
 * {@link fromAnthropicRequest}: messages that came from a request and were not changed are written back as
 * they were, byte for byte once serialized (providers cache on the exact prefix). The result is valid for the
 * Messages API:
 *
 * - leading system messages become `system`; a system message that stood in `messages` goes back there; any
 *   other system message later in the conversation becomes text in a user turn;
 * - `tool` messages become `tool_result` blocks in a user turn; consecutive messages that map to the same
 *   role are merged into one turn (unless they were separate turns in the request they came from);
 * - an assistant turn merged from several messages opens with its thinking blocks when it has any (the API
 *   refuses a turn with thinking that starts otherwise; where thinking sits among the blocks of one turn
 *   does not matter to it);
 * - reasoning without a signature (from another provider) is dropped, since the API rejects it, and a turn
 *   left empty by that is dropped;
 * - a conversation that would start with an assistant turn gets a short user turn first (see
 *   {@link ToAnthropicRequestOptions.firstUserText}), unless that turn opens with a `compaction` block: the
 *   conversation is then sent from its compaction on, as the API reads it.
 *
 * Compaction's own marks (pins, `joinsPrevious`...) are never written.
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
  while (start < messages.length && roleOf(messages[start]!) === 'system-parameter')
    systemMessages.push(messages[start++]!);

  const turns: AnthropicTurn[] = [];
  for (let index = start; index < messages.length; index++) {
    const message = messages[index]!;
    const role = roleInMessages(message);
    const previous = turns.at(-1);
    const separate = role === 'system' || anthropicMetadataOf(message)?.[anthropicMarkers.newTurn] === true;
    const turn: AnthropicTurn =
      previous !== undefined && previous.role === role && !separate
        ? previous
        : { role, blocks: [], sources: [], dropped: 0 };
    if (turn !== previous) turns.push(turn);
    addToTurn(turn, message, index, (path, text) => issues.push({ index, path, message: text }));
  }
  if (issues.length > 0) throw new InvalidMessagesError({ issues });

  const kept = turns.filter((turn) => turn.blocks.length > 0 || turn.dropped === 0);
  const firstUserText = options.firstUserText ?? defaultFirstUserText;
  const opening = kept.findIndex((turn) => turn.role !== 'system');
  // A conversation sent from its compaction block on opens with the assistant turn that holds it.
  if (kept[opening]?.role === 'assistant' && kept[opening].blocks[0]?.type !== 'compaction') {
    if (firstUserText === false) {
      throw new InvalidMessagesError({
        issues: [
          {
            index: kept[opening].sources[0]!.index,
            path: 'role',
            message: 'the conversation must start with a user turn',
          },
        ],
      });
    }
    kept.splice(opening, 0, {
      role: 'user',
      blocks: [{ type: 'text', text: firstUserText }],
      sources: [],
      dropped: 0,
    });
  }
  checkToolPairing(kept);

  const system = systemParameter(systemMessages);
  const request: AnthropicRequest = {
    ...(system === undefined ? {} : { system }),
    messages: kept.map(turnMessage),
  };
  // Blocks are built from core parts and kept fields, in the API's own shapes.
  return request as unknown as AnthropicMessagesRequest;
}

/**
 * Where a leading core message goes: a system message that did not stand in `messages` opens the `system`
 * parameter; anything else starts the conversation.
 */
function roleOf(message: Message): 'system-parameter' | AnthropicRole {
  const role = roleInMessages(message);
  return message.role === 'system' && role !== 'system' ? 'system-parameter' : role;
}

/** Every tool result answers a call of the assistant turn before it; every call is answered before the next. */
function checkToolPairing(turns: AnthropicTurn[]): void {
  const issues: MessageIssue[] = [];
  let pending = new Set<string>();
  let pendingSource = -1;
  let callsOfLastAssistant = new Set<string>();
  for (const turn of turns) {
    const firstIndex = turn.sources[0]?.index ?? -1;
    // A system message between turns neither answers nor makes calls.
    if (turn.role === 'system') continue;
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

import type { AssistantMessage, Message, Part } from '@compaction/core';
import { isRecord, splitMetadata } from '../convert/metadata-slot.js';

/**
 * Keeps a compacted history valid for Anthropic models with thinking. `@ai-sdk/anthropic` sends consecutive
 * assistant messages as one assistant turn, and the API refuses a turn with thinking that does not open with
 * it; compaction can leave two assistant messages next to each other (a user message between them dropped),
 * the second starting with thinking. For each such run whose first part is not Anthropic thinking, the
 * Anthropic thinking parts of the run (those with a `signature` or `redactedData` in
 * `providerOptions.anthropic`) move to the front of its first message: where thinking sits among the parts
 * of one turn carries no meaning for the API. A message left empty by the move is dropped.
 *
 * Other providers' reasoning is left in place (an OpenAI reasoning item must stay before the item it
 * belongs to). Messages that need no change are returned as the same objects.
 */
export function signedReasoningFirst(messages: readonly Message[]): Message[] {
  const result: Message[] = [];
  let index = 0;
  while (index < messages.length) {
    let end = index;
    while (end < messages.length && messages[end]!.role === 'assistant') end++;
    if (end - index < 2) {
      result.push(messages[index]!);
      index++;
      continue;
    }
    result.push(...reorderRun(messages.slice(index, end) as AssistantMessage[]));
    index = end;
  }
  return result;
}

function reorderRun(run: AssistantMessage[]): AssistantMessage[] {
  const first = run[0]!.content[0];
  const thinking = run.flatMap((message) => message.content.filter(isAnthropicThinking));
  if (thinking.length === 0 || (first !== undefined && isAnthropicThinking(first))) return run;
  return run.flatMap((message, position): AssistantMessage[] => {
    const rest = message.content.filter((part) => !isAnthropicThinking(part));
    if (position === 0) return [{ ...message, content: [...thinking, ...rest] }];
    if (rest.length === message.content.length) return [message];
    return rest.length === 0 ? [] : [{ ...message, content: rest }];
  });
}

/** Whether a part is reasoning that `@ai-sdk/anthropic` sends back as a thinking block. */
function isAnthropicThinking(part: Part): part is Extract<Part, { type: 'reasoning' }> {
  if (part.type !== 'reasoning') return false;
  const providerOptions = splitMetadata(part.metadata).extras.providerOptions;
  const anthropic = isRecord(providerOptions) ? providerOptions.anthropic : undefined;
  return (
    isRecord(anthropic) &&
    (typeof anthropic.signature === 'string' || typeof anthropic.redactedData === 'string')
  );
}

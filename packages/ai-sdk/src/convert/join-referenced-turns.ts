import { compactionMetadataOf, type Message, type Part, withCompactionMetadata } from '@compaction/core';
import { isRecord, splitMetadata } from './metadata-slot.js';

/**
 * Marks the messages of a model turn that AI SDK steps split over several messages, so turn grouping keeps
 * them whole: a tool called from code execution (`providerOptions.anthropic.caller.toolId`, Anthropic's
 * programmatic tool calling) and the provider-executed tool result that closes the code execution refer to
 * a provider-executed call of an earlier step. The referring message and every message between it and the
 * one that made the call get `metadata.compaction.joinsPrevious`, as the provider converters do; the
 * encoders never write the mark back, since it is derived again on the way in.
 *
 * Messages that need no mark are returned as the same objects; `cache` gives a message marked once the same
 * marked copy every time, so a conversation converted again keeps its identities.
 */
export function joinReferencedTurns(
  messages: readonly Message[],
  cache: WeakMap<Message, Message> = new WeakMap(),
): Message[] {
  const openedIn = new Map<string, number>();
  const spans: Array<{ from: number; to: number }> = [];
  messages.forEach((message, index) => {
    const { opens, refersTo } = referencesOf(message);
    let earliest = index;
    for (const id of refersTo) earliest = Math.min(earliest, openedIn.get(id) ?? index);
    if (earliest < index) spans.push({ from: earliest, to: index });
    for (const id of opens) if (!openedIn.has(id)) openedIn.set(id, index);
  });
  if (spans.length === 0) return [...messages];
  const joined = [...messages];
  for (const { from, to } of spans) {
    let end = to + 1;
    // The results of the referring message's calls go with it.
    while (joined[end]?.role === 'tool') end++;
    for (let index = from + 1; index < end; index++) {
      const message = joined[index]!;
      if (compactionMetadataOf(message)?.joinsPrevious === true) continue;
      let marked = cache.get(message);
      if (marked === undefined) {
        marked = withCompactionMetadata(message, { joinsPrevious: true });
        cache.set(message, marked);
        unmarked.set(marked, message);
      }
      joined[index] = marked;
    }
  }
  return joined;
}

/** The message each marked copy was made from. */
const unmarked = new WeakMap<Message, Message>();

/**
 * The metadata a message came in with, before {@link joinReferencedTurns} marked it: the mark alone cannot
 * tell whether the message had no metadata or an empty object, and encoding must give back what came in.
 */
export function metadataBeforeJoinMark(message: Message): Message['metadata'] {
  return (unmarked.get(message) ?? message).metadata;
}

interface References {
  opens: string[];
  refersTo: string[];
}

/** References read so far: messages are immutable, and a conversation is converted again at every step. */
const knownReferences = new WeakMap<Message, References>();

/** The tool-call ids a message opens, and those of earlier messages it refers to. */
function referencesOf(message: Message): References {
  let references = knownReferences.get(message);
  if (references === undefined) {
    references = readReferences(message);
    knownReferences.set(message, references);
  }
  return references;
}

function readReferences(message: Message): References {
  const opens: string[] = [];
  const refersTo: string[] = [];
  if (message.role !== 'assistant') return { opens, refersTo };
  const read = (part: Record<string, unknown>, providerOptions: unknown) => {
    if (part.type === 'tool-call' && typeof part.toolCallId === 'string') opens.push(part.toolCallId);
    // A provider-executed result sits in the assistant message of a later step than its call.
    if (part.type === 'tool-result' && typeof part.toolCallId === 'string') refersTo.push(part.toolCallId);
    const anthropic = isRecord(providerOptions) ? providerOptions.anthropic : undefined;
    const caller = isRecord(anthropic) ? anthropic.caller : undefined;
    if (isRecord(caller) && typeof caller.toolId === 'string') refersTo.push(caller.toolId);
  };
  for (const part of message.content as Part[]) {
    read(part as unknown as Record<string, unknown>, splitMetadata(part.metadata).extras.providerOptions);
  }
  const detached = splitMetadata(message.metadata).extras.detached;
  for (const entry of Array.isArray(detached) ? detached : []) {
    const part = isRecord(entry) ? entry.part : undefined;
    if (isRecord(part)) read(part, part.providerOptions);
  }
  return { opens, refersTo };
}

import type {
  CompactionEvent,
  CompactionResult,
  Compactor,
  ContextOverflow,
  JSONObject,
  Message,
} from '@compaction/core';
import { storedContextFields } from '@compaction/provider-openai';
import { formats } from '../formats/formats.js';
import {
  besideList,
  conversationFieldsOf,
  conversationKey,
  countCacheMarks,
  hashTurn,
  withConversation,
  withoutCacheMarks,
} from './conversation-fields.js';
import { type PrefixMemory, storeSession } from './prefix-memory.js';
import type { ProxiedFormat } from './upstreams.js';

/** What the proxy sends upstream for one request, and what it needs to compact it harder on an overflow. */
export interface PreparedRequest {
  /** The body to send: the client's own bytes when nothing was substituted or compacted. */
  body: Buffer;
  /** The compaction this request ran, if any. */
  event?: CompactionEvent;
  /** Set when the body holds a conversation the proxy read, so it can be compacted after an overflow. */
  conversation?: ReadConversation;
}

interface ReadConversation {
  format: ProxiedFormat;
  key: string;
  /** The client's request. */
  request: Record<string, unknown>;
  /** The client's turns (the list field). */
  turns: readonly unknown[];
  /** The conversation sent, as core messages. */
  messages: Message[];
}

/** What a compaction of a proxied request needs. */
export interface RequestCompactionContext {
  compactor: Compactor;
  memory: PrefixMemory;
  /** Called after each compaction, once its result is remembered. */
  compacted(key: string, event: CompactionEvent): void;
  /** Runs a compaction in a slot of the limiter (throws 503 when every slot and queue place is taken). */
  inSlot<T>(operation: () => Promise<T>): Promise<T>;
}

const unchanged = (body: Buffer): PreparedRequest => ({ body });

/**
 * Prepares a client's request for the upstream. The conversation's remembered compaction replaces the turns
 * it stands for when the request starts with them; the result is compacted when it crosses the trigger, and
 * that compaction is remembered for the next request. Anything the proxy cannot read as a conversation (not
 * JSON, a Responses request continuing a stored response or conversation, a string input) goes through as it
 * came.
 */
export async function prepareRequest(
  format: ProxiedFormat,
  raw: Buffer,
  conversationHeader: string | string[] | undefined,
  context: RequestCompactionContext,
): Promise<PreparedRequest> {
  let request: unknown;
  try {
    request = JSON.parse(raw.toString('utf8'));
  } catch {
    return unchanged(raw);
  }
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return unchanged(raw);
  const body = request as Record<string, unknown>;
  const { listField } = conversationFieldsOf[format];
  const turns = body[listField];
  // A Responses request that continues stored context (a response, or a conversation its items are added to)
  // sends only the new items: the history is upstream, and an item left out here would never be stored.
  if (!Array.isArray(turns) || continuesStoredContext(format, body)) return unchanged(raw);
  const key = conversationKey(format, body, turns, conversationHeader);

  const remembered = await context.memory.get(key);
  let sent = body;
  if (
    remembered !== undefined &&
    remembered.format === format &&
    remembered.besideHash === hashTurn(besideList(format, body)) &&
    remembered.turnHashes.length <= turns.length &&
    remembered.turnHashes.every((hash, index) => hash === hashTurn(turns[index]))
  ) {
    const replaced = withinCacheMarkLimit(
      format,
      body,
      remembered.replacement[listField] as unknown[],
      turns.slice(remembered.turnHashes.length),
    );
    sent = withConversation(format, body, {
      ...remembered.replacement,
      [listField]: [...replaced, ...turns.slice(remembered.turnHashes.length)],
    });
  }
  let messages: Message[];
  try {
    messages = (await formats[format].read(sent)).messages;
  } catch {
    // The upstream judges a request the converters cannot read; it goes as the client sent it.
    return unchanged(raw);
  }
  const conversation: ReadConversation = { format, key, request: body, turns, messages };
  const sessionId = storeSession(key);
  // Only a request that will compact waits for a slot: reading and counting the others is quick.
  const prepare = () => context.compactor.prepare(messages, { sessionId });
  const result = context.compactor.check(messages, { sessionId }).shouldCompact
    ? await context.inSlot(prepare)
    : await prepare();
  if (!result.compacted) {
    return { body: sent === body ? raw : Buffer.from(JSON.stringify(sent)), conversation };
  }
  return remember(conversation, result, context);
}

/**
 * After the upstream refused a request as too long: compacts what was sent with the `overflow` trigger, which
 * must get under the limit, and prepares the retry. Throws when the conversation cannot get there.
 */
export async function compactAfterOverflow(
  conversation: ReadConversation,
  overflow: ContextOverflow,
  context: RequestCompactionContext,
): Promise<PreparedRequest> {
  const result = await context.inSlot(() =>
    context.compactor.compact(conversation.messages, {
      sessionId: storeSession(conversation.key),
      trigger: 'overflow',
      overflow,
    }),
  );
  if (!result.compacted) throw new Error(`the conversation could not be compacted (${result.skipped})`);
  return remember(conversation, result, context);
}

/** Anthropic accepts at most this many `cache_control` marks in a request. */
const maximumCacheMarks = 4;

/**
 * The remembered compacted turns, with their cache marks dropped when, with the client's new marks, the
 * request would hold more than Anthropic accepts. The marks do not change what the cache holds, and the
 * client's marks on its newest turns are the ones that write the next entry.
 */
function withinCacheMarkLimit(
  format: ProxiedFormat,
  request: Record<string, unknown>,
  replaced: unknown[],
  added: unknown[],
): unknown[] {
  if (format !== 'anthropic') return replaced;
  const others = countCacheMarks(request.system) + countCacheMarks(request.tools) + countCacheMarks(added);
  if (countCacheMarks(replaced) + others <= maximumCacheMarks) return replaced;
  return replaced.map(withoutCacheMarks);
}

/** Writes a compaction's result into the request, remembers it for the conversation's next requests. */
async function remember(
  conversation: ReadConversation,
  result: CompactionResult,
  context: RequestCompactionContext,
): Promise<PreparedRequest> {
  const { format, key, request, turns } = conversation;
  const written = JSON.parse(
    await formats[format].write(result.messages, { format, messages: [], envelope: {}, list: false }),
  ) as JSONObject;
  const replacement: JSONObject = {};
  for (const field of conversationFieldsOf[format].fields) {
    if (written[field] !== undefined) replacement[field] = written[field];
  }
  const previous = await context.memory.get(key);
  await context.memory.set(key, {
    version: 1,
    format,
    turnHashes: turns.map((turn) => hashTurn(turn)),
    besideHash: hashTurn(besideList(format, request)),
    replacement,
    compactions: (previous?.compactions ?? 0) + 1,
  });
  const event = result.event;
  if (event !== undefined) context.compacted(key, event);
  return {
    body: Buffer.from(JSON.stringify(withConversation(format, request, replacement))),
    ...(event === undefined ? {} : { event }),
    conversation: { ...conversation, messages: result.messages },
  };
}

/** Whether a Responses request continues context the API stores (see `storedContextFields`). */
function continuesStoredContext(format: ProxiedFormat, body: Record<string, unknown>): boolean {
  return format === 'openai-responses' && storedContextFields(body).length > 0;
}

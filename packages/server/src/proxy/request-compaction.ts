import { createHash } from 'node:crypto';
import {
  CompactionAbortedError,
  CompactionError,
  type CompactionEvent,
  type CompactionResult,
  type CompactOptions,
  type Compactor,
  type ContextOverflow,
  type JSONObject,
  type Message,
  type RequestSize,
  type TokenCounter,
} from '@compaction/core';
import { formats, requestOverheadTokens } from '@compaction/formats';
import { storedContextFields } from '@compaction/provider-openai';
import { everyInSlices, mapInSlices, nextTurn, utf8InSlices } from '../workers/event-loop-slices.js';
import {
  besideList,
  conversationFieldsOf,
  conversationKey,
  countCacheMarks,
  explicitKey,
  hashTurn,
  withConversation,
  withoutCacheMarks,
} from './conversation-fields.js';
import type { ForcedCompaction, ForcedCompactions } from './forced-compactions.js';
import { type PrefixMemory, storeSession } from './prefix-memory.js';
import type { PrefixUse } from './prefix-use.js';
import type { RecentBodies } from './recent-bodies.js';
import type { LearnedLimit, UpstreamLimits } from './upstream-limits.js';
import type { ProxiedFormat } from './upstreams.js';

/** What the proxy sends upstream for one request, and what it needs to compact it harder on an overflow. */
export interface PreparedRequest {
  /** The body to send: the client's own bytes when nothing was substituted or compacted. */
  body: Buffer;
  /** The compaction this request ran, if any. */
  event?: CompactionEvent;
  /** Set when the body holds a conversation the proxy read, so it can be compacted after an overflow. */
  conversation?: ReadConversation;
  /** Set when the body went on unread: reads its conversation, if it holds one, for an overflow's retry. */
  readLater?: () => Promise<ReadConversation | undefined>;
}

export interface ReadConversation {
  format: ProxiedFormat;
  key: string;
  /** Where the request goes (`anthropic`, `openai`) and the model it names: whose limit it is held to. */
  upstream: string;
  model: string;
  /** The proxy's count of what the request carries besides the conversation (tools, instructions). */
  overheadTokens: number;
  /** The client's request. */
  request: Record<string, unknown>;
  /** The client's turns (the list field). */
  turns: readonly unknown[];
  /** The conversation sent, as core messages. */
  messages: Message[];
  /** The hashes of the client's first turns, when they are the ones the remembered compaction replaced. */
  prefixHashes?: readonly string[];
}

/**
 * Bodies from this size on are prepared in slices of the event loop (see `event-loop-slices.ts`), handing it
 * back between the stages (decoding, parsing, converting, counting, compacting, writing) and within the loops
 * over every turn, so the proxy's status and its other clients are answered while a large request is prepared.
 * Smaller bodies take a few milliseconds in all, and are prepared in one go. Slices rather than the whole
 * preparation on a compaction thread: they brought the status's p99 under a 3.9 MB compacting load from about
 * 400 ms to about 40 ms in the serve bench and change nothing else (single flight, the remembered prefixes,
 * the limiter's slots), where a thread would have to parse the body before an unnamed conversation's key is
 * known and run the Compactor's rounds apart from this one.
 */
export const slicedBodyBytes = 256 * 1024;

/** What a compaction of a proxied request needs. */
export interface RequestCompactionContext {
  compactor: Compactor;
  memory: PrefixMemory;
  /**
   * Called after each compaction, once its result is remembered, with the requests the prefix it replaced
   * served (none for a conversation's first compaction).
   */
  compacted(key: string, event: CompactionEvent, served: number | undefined): void;
  /** Called when an upstream's overflow taught the proxy a lower limit. */
  learned(limit: LearnedLimit): void;
  /** Runs a compaction in a slot of the limiter (throws 503 when every slot and queue place is taken). */
  inSlot<T>(operation: () => Promise<T>): Promise<T>;
  /** The limits the upstreams stated in their overflow errors. */
  limits: UpstreamLimits;
  /** The requests each compacted prefix served. */
  prefixUse: PrefixUse;
  /** Conversations whose next request is compacted whatever its size (a forced manual compaction). */
  forced?: ForcedCompactions;
  /** Where background compaction starts, in tokens of the budget's limit; none without it. */
  backgroundAt?: number;
  /** Compactions under way, by conversation and request: identical requests share one. */
  flights: Map<string, Promise<PreparedRequest>>;
  /**
   * The recent bodies, to count a request from what it adds to the one before it and pass it on unread when
   * it is well under the trigger. None reads every request whole (a trigger policy decides from more).
   */
  recentBodies?: RecentBodies;
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
  upstream: string = format === 'anthropic' ? 'anthropic' : 'openai',
): Promise<PreparedRequest> {
  const read = () => readConversation(format, raw, conversationHeader, context, upstream);
  const recent = context.recentBodies;
  const plainHeader =
    conversationHeader === undefined ||
    (typeof conversationHeader === 'string' && explicitKey.test(conversationHeader));
  let estimate: ReturnType<RecentBodies['estimate']>;
  // While a forced compaction waits for its conversation, every request is read to find it.
  if (recent !== undefined && plainHeader && (context.forced?.size ?? 0) === 0) {
    // Counted from what it adds to a recent body: well under the trigger, it goes on unread, at network speed.
    estimate = recent.estimate(format, raw);
    if (estimate !== undefined && estimate.tokens <= passThroughCeiling(context, upstream)) {
      recent.remember(format, raw, estimate.textTokens, { grewFrom: estimate.grewFrom });
      return { body: raw, readLater: async () => (await read())?.conversation };
    }
  }
  const sliced = raw.length >= slicedBodyBytes;
  if (sliced) await nextTurn();
  const found = await read();
  if (found === undefined) return unchanged(raw);
  const { conversation, body, sent, usesPrefix } = found;
  const { key, messages } = conversation;
  if (sliced) {
    // Each message counted once (the counter keeps the counts), in slices: what follows counts from them.
    await mapInSlices(messages, (message) => context.compactor.counter.countMessage(message));
  }
  const sessionId = storeSession(key);
  const size = requestSize(conversation, context);
  const unchangedBody = (): PreparedRequest => {
    if (usesPrefix) context.prefixUse.used(key);
    return { body: sent === body ? raw : Buffer.from(JSON.stringify(sent)), conversation };
  };
  const forced = context.forced?.take(key);
  if (forced !== undefined) return compactForced(found, forced, context, raw);
  const check = context.compactor.check(messages, { sessionId, ...size });
  const held =
    check.reason === 'over-trigger' && check.tokens <= holdUntil(conversation, context, check.limit);
  if (recent !== undefined && !usesPrefix) {
    // The body as the client sent it was counted whole here: it calibrates the counts of the next ones. Its
    // text count is the estimate made above when there was one (comparing a large body with every recent one
    // again would repeat it).
    if (sliced) await nextTurn();
    const textTokens = (estimate ?? recent.estimate(format, raw))?.textTokens ?? recent.countBody(raw);
    recent.remember(format, raw, textTokens, { counted: check.tokens });
  }
  if (held) return unchangedBody();
  if (!check.shouldCompact) {
    const result = await context.compactor.prepare(messages, { sessionId, ...size });
    return result.compacted ? remember(conversation, result, context) : unchangedBody();
  }
  // Identical requests of one conversation sent together (a client's retry, parallel agents) share one
  // compaction: one summary paid for, one compaction counted. Looked up and set with no await between.
  const flightKey = `${key}\n${createHash('sha256').update(raw).digest('hex')}`;
  const underWay = context.flights.get(flightKey);
  if (underWay !== undefined) return underWay;
  // Only a request that will compact waits for a slot: reading and counting the others is quick.
  const flight = context
    .inSlot(async () => {
      // The Compactor repairs and checks the whole history before the strategy runs: a stage of its own.
      if (sliced) await nextTurn();
      return context.compactor.prepare(messages, { sessionId, ...size });
    })
    .then((result) => (result.compacted ? remember(conversation, result, context) : unchangedBody()));
  context.flights.set(flightKey, flight);
  const landed = () => context.flights.delete(flightKey);
  flight.then(landed, landed);
  return flight;
}

/**
 * A request whose conversation was marked for a forced compaction: compacted now, in a slot, as a manual
 * compaction with `force` and the mark's instructions, whatever its size, and remembered like any other. When
 * the compaction fails (the Compactor reported why), the request goes on as it would have.
 */
async function compactForced(
  found: FoundConversation,
  forced: ForcedCompaction,
  context: RequestCompactionContext,
  raw: Buffer,
): Promise<PreparedRequest> {
  const { conversation, body, sent, usesPrefix } = found;
  const { key, messages } = conversation;
  const { overheadTokens, limitTokens } = requestSize(conversation, context);
  // `force` runs the compaction under the target too.
  const options: CompactOptions = {
    sessionId: storeSession(key),
    trigger: 'manual',
    force: true,
    ...(overheadTokens === undefined ? {} : { overheadTokens }),
    ...(limitTokens === undefined ? {} : { limitTokens }),
    ...(forced.instructions === undefined ? {} : { instructions: forced.instructions }),
  };
  const result = await context
    .inSlot(() => context.compactor.compact(messages, options))
    .catch((error: unknown) => {
      // A compaction that failed was reported; the request goes on. Anything else (the client left, every
      // slot taken: 503) fails the request as in line, and the mark waits for the client's retry.
      if (CompactionError.isInstance(error) && !CompactionAbortedError.isInstance(error)) return undefined;
      context.forced?.mark(key, forced);
      throw error;
    });
  if (result?.compacted) return remember(conversation, result, context);
  if (usesPrefix) context.prefixUse.used(key);
  return { body: sent === body ? raw : Buffer.from(JSON.stringify(sent)), conversation };
}

/** What {@link readConversation} found: the client's request, and what is sent for it unless compacted. */
interface FoundConversation {
  conversation: ReadConversation;
  body: Record<string, unknown>;
  sent: Record<string, unknown>;
  /** Whether the conversation's remembered compacted prefix stands for its first turns in `sent`. */
  usesPrefix: boolean;
}

/**
 * Reads a request's conversation, its remembered compaction in place of the turns it stands for when the
 * request starts with them; `undefined` for anything the proxy cannot read as a conversation (not JSON, a
 * Responses request continuing a stored response or conversation, a string input, what the converters refuse).
 */
async function readConversation(
  format: ProxiedFormat,
  raw: Buffer,
  conversationHeader: string | string[] | undefined,
  context: RequestCompactionContext,
  upstream: string,
): Promise<FoundConversation | undefined> {
  const sliced = raw.length >= slicedBodyBytes;
  // Decoding a large body in one go takes as long as parsing it, the longest step that cannot be cut.
  const text = sliced ? await utf8InSlices(raw) : raw.toString('utf8');
  if (sliced) await nextTurn();
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return undefined;
  if (sliced) await nextTurn();
  const body = request as Record<string, unknown>;
  const { listField } = conversationFieldsOf[format];
  const turns = body[listField];
  // A Responses request that continues stored context (a response, or a conversation its items are added to)
  // sends only the new items: the history is upstream, and an item left out here would never be stored.
  if (!Array.isArray(turns) || continuesStoredContext(format, body)) return undefined;
  const key = conversationKey(format, body, turns, conversationHeader);

  const remembered = await context.memory.get(key);
  let sent = body;
  let usesPrefix = false;
  if (
    remembered !== undefined &&
    remembered.format === format &&
    remembered.besideHash === hashTurn(besideList(format, body)) &&
    remembered.turnHashes.length <= turns.length &&
    (await everyInSlices(remembered.turnHashes, (hash, index) => hash === hashTurn(turns[index])))
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
    usesPrefix = true;
  }
  let messages: Message[];
  try {
    messages = (await formats[format].read(sent)).messages;
  } catch {
    // The upstream judges a request the converters cannot read; it goes as the client sent it.
    return undefined;
  }
  if (sliced) await nextTurn();
  const conversation: ReadConversation = {
    format,
    key,
    upstream,
    model: typeof body.model === 'string' ? body.model : '',
    overheadTokens: requestOverheadTokens(body, context.compactor.counter.estimator),
    request: body,
    turns,
    messages,
    // Checked against these turns just now: a compaction of this request need not hash them again.
    ...(usesPrefix && remembered !== undefined ? { prefixHashes: remembered.turnHashes } : {}),
  };
  return { conversation, body, sent, usesPrefix };
}

/**
 * Share of the trigger under which a request counted from a recent body goes on unread: a conversation with a
 * remembered compaction was over the trigger when it compacted, and only grew since, so it is read whole.
 */
const passThroughShare = 0.9;

/**
 * The count under which a request to `upstream`, counted from a recent body, goes on unread. With background
 * compaction, under where it starts: a request from there on is read, so its history is compacted ahead.
 */
function passThroughCeiling(context: RequestCompactionContext, upstream: string): number {
  const { trigger, limit } = context.compactor.budget;
  if (trigger === null) return Number.POSITIVE_INFINITY;
  const learned = context.limits.lowestLimitTokens(upstream);
  const scale = learned === undefined ? 1 : Math.min(1, learned / limit);
  const ahead = context.backgroundAt ?? Number.POSITIVE_INFINITY;
  return Math.min(trigger, ahead) * scale * passThroughShare;
}

/** How many turns of the size the conversation has been adding the target leaves room for. */
const turnsOfRoom = 3;
/** The least share of the trigger the target keeps, however large the turns. */
const leastTargetShare = 0.25;
/** How many of the latest model turns the pace of a conversation is read from. */
const paceTurns = 4;
/**
 * The request's size for the Compactor: what it carries besides its messages, the limit learned for its
 * upstream and model, and a target that leaves room for several turns of the size the conversation has been
 * adding, so the compacted prefix serves several requests before the next compaction.
 */
export function requestSize(conversation: ReadConversation, context: RequestCompactionContext): RequestSize {
  const { compactor } = context;
  const limitTokens = context.limits.limitTokens(conversation.upstream, conversation.model);
  const size: RequestSize = { overheadTokens: conversation.overheadTokens };
  if (limitTokens !== undefined && limitTokens < compactor.budget.limit) size.limitTokens = limitTokens;
  if (compactor.budget.trigger === null) return size;
  const scale = Math.min(1, (size.limitTokens ?? compactor.budget.limit) / compactor.budget.limit);
  const trigger = compactor.budget.trigger * scale;
  const { messages, overheadTokens } = conversation;
  const pace = recentPace(messages, compactor.counter);
  const room = Math.max(trigger * leastTargetShare, trigger - turnsOfRoom * pace);
  // Never below what every compaction keeps whole (the opening and the newest turn), which a target under it
  // would make the strategies cut into.
  const kept = overheadTokens + keptWhole(messages, compactor.counter);
  size.targetTokens = Math.floor(Math.max(kept, Math.min(compactor.budget.target * scale, room)));
  return size;
}

/**
 * The count up to which a request over the trigger still goes uncompacted: when the conversation's turns are
 * so large that what every compaction keeps whole leaves room for fewer than {@link turnsOfRoom} more turns
 * under the trigger, the compacted prefix is held up to that room, never past the limit.
 */
function holdUntil(conversation: ReadConversation, context: RequestCompactionContext, limit: number): number {
  const { counter } = context.compactor;
  const { messages, overheadTokens } = conversation;
  const room = overheadTokens + keptWhole(messages, counter) + turnsOfRoom * recentPace(messages, counter);
  return Math.min(limit, room);
}

/** The tokens of the opening (the messages before the first model turn) and of the newest model turn on. */
function keptWhole(messages: readonly Message[], counter: TokenCounter): number {
  const first = messages.findIndex((message) => message.role === 'assistant');
  const last = messages.findLastIndex((message) => message.role === 'assistant');
  if (first === -1) return counter.count(messages);
  return counter.count(messages.slice(0, first)) + counter.count(messages.slice(last));
}

/**
 * The tokens a request of this conversation has been adding: the messages from its `paceTurns`-th latest model
 * turn on, per model turn (each request after the first adds the model's answer and what answers it).
 */
function recentPace(messages: readonly Message[], counter: TokenCounter): number {
  let turns = 0;
  let tokens = 0;
  for (let index = messages.length - 1; index >= 0 && turns < paceTurns; index--) {
    const message = messages[index]!;
    tokens += counter.countMessage(message);
    if (message.role === 'assistant') turns++;
  }
  return turns === 0 ? 0 : tokens / turns;
}

/**
 * After the upstream refused a request as too long: learns the limit its error stated (or the count it
 * refused) for its upstream and model, which the size of the conversation's retry (see {@link requestSize})
 * and of every later request to that model then holds. The cut itself is the one overflow policy's
 * (`callWithCompaction` of `@compaction/agent-loop`).
 */
export function learnFromOverflow(
  conversation: ReadConversation,
  overflow: ContextOverflow,
  context: RequestCompactionContext,
): void {
  const { compactor } = context;
  const sentTokens = compactor.counter.count(conversation.messages) + conversation.overheadTokens;
  const learned = context.limits.learn(conversation.upstream, conversation.model, overflow, {
    tokens: sentTokens,
    reservedOutputTokens: compactor.budget.reservedOutputTokens,
  });
  context.learned(learned);
}

/** The retry of a refused request: the overflow compaction's result written into it and remembered. */
export async function retryRequest(
  conversation: ReadConversation,
  result: CompactionResult,
  context: RequestCompactionContext,
): Promise<PreparedRequest> {
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
  const { format, key, request, turns, prefixHashes = [] } = conversation;
  // The Compactor verified and recorded the result just now, in one go: writing it is a stage of its own.
  await nextTurn();
  const text = await formats[format].write(result.messages, {
    format,
    messages: [],
    envelope: {},
    list: false,
  });
  // A large request's stages (writing, parsing, hashing, writing the body) each hand the event loop back.
  const sliced = text.length >= slicedBodyBytes;
  if (sliced) await nextTurn();
  const written = JSON.parse(text) as JSONObject;
  const replacement: JSONObject = {};
  for (const field of conversationFieldsOf[format].fields) {
    if (written[field] !== undefined) replacement[field] = written[field];
  }
  if (sliced) await nextTurn();
  // The turns the remembered prefix stood for were hashed when the request was read: only the others are.
  const added = await mapInSlices(turns.slice(prefixHashes.length), (turn) => hashTurn(turn));
  const turnHashes = [...prefixHashes, ...added];
  const previous = await context.memory.get(key);
  await context.memory.set(key, {
    version: 1,
    format,
    turnHashes,
    besideHash: hashTurn(besideList(format, request)),
    replacement,
    compactions: (previous?.compactions ?? 0) + 1,
  });
  const event = result.event;
  if (event !== undefined) context.compacted(key, event, context.prefixUse.compacted(key));
  if (sliced) await nextTurn();
  const sentText = JSON.stringify(withConversation(format, request, replacement));
  if (sliced) await nextTurn();
  return {
    body: Buffer.from(sentText),
    ...(event === undefined ? {} : { event }),
    conversation: { ...conversation, messages: result.messages },
  };
}

/** Whether a Responses request continues context the API stores (see `storedContextFields`). */
function continuesStoredContext(format: ProxiedFormat, body: Record<string, unknown>): boolean {
  return format === 'openai-responses' && storedContextFields(body).length > 0;
}

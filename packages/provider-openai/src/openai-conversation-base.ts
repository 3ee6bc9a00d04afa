import {
  type CompactionEvent,
  type CompactionResult,
  type Compactor,
  ConversationLoop,
  frozenCopy,
  type Message,
} from '@compaction/core';
import type { OpenAIConversationEvents } from './openai-conversation-events.js';
import {
  type OpenAIConversationCompactionSettings,
  resolveOpenAIConversationCompactor,
} from './openai-conversation-settings.js';
import { toOpenAICompactionError } from './openai-error.js';
import { parseOpenAIContextOverflow } from './parse-openai-context-overflow.js';

/** Options of one `send`. */
export interface OpenAISendOptions<Request> {
  /** Fields that replace the conversation's request defaults for this call only. */
  request?: Partial<Request>;
  /** Aborts the compaction and the request. */
  signal?: AbortSignal;
}

/** What both OpenAI conversations are built from. */
export interface OpenAIConversationBaseSettings extends OpenAIConversationCompactionSettings {
  /** The session compactions are recorded under. Default `default`. */
  sessionId?: string;
}

/** One model call, as a concrete conversation makes it. */
export interface OpenAIExchange<Item, Response> {
  response: Response;
  /** The items the answer adds to the history. */
  items: Item[];
  /** Input tokens the API reported (cached ones included), when it reported usage. */
  inputTokens: number | undefined;
}

/**
 * The loop shared by the Chat Completions and Responses conversations: a full history of SDK items, each
 * group converted to core messages once (so token counts are memoized and anchored by identity), and core's
 * {@link ConversationLoop} for the working context, proactive compaction before each request, usage fed back
 * to the counter, and one compaction and retry after an overflow refusal.
 */
export abstract class OpenAIConversationBase<Item extends object, Request extends object, Body, Response> {
  /** The compactor that decides and compacts; its counter is anchored on the reported usage. */
  readonly compactor: Compactor;
  private readonly loop: ConversationLoop<Body, Response>;
  private readonly items: Item[] = [];

  protected constructor(
    settings: OpenAIConversationBaseSettings,
    model: string,
    maxOutputTokens: number | undefined,
  ) {
    this.compactor = resolveOpenAIConversationCompactor(settings, model, maxOutputTokens);
    this.loop = new ConversationLoop({
      compactor: this.compactor,
      sessionId: settings.sessionId,
      parseContextOverflow: parseOpenAIContextOverflow,
      toCompactionError: (error) => toOpenAICompactionError(error),
    });
  }

  /** Converts a group of items (appended together) to core messages. */
  protected abstract toCore(items: Item[]): Message[];
  /** Builds the request body for a core context. */
  protected abstract body(messages: Message[], request: Partial<Request> | undefined): Body;
  /** Sends a body with the SDK; throws what the SDK throws. */
  protected abstract call(
    body: Body,
    signal: AbortSignal | undefined,
  ): Promise<OpenAIExchange<Item, Response>>;

  /** The whole conversation, never compacted, in the SDK's shape. */
  get history(): Item[] {
    return [...this.items];
  }

  /** The full history as core messages. */
  get coreHistory(): Message[] {
    return this.loop.history;
  }

  /** The working context as core messages: what the next request carries before any compaction. */
  get coreContext(): Message[] {
    return this.loop.context;
  }

  /** Every compaction of this conversation, oldest first. */
  get compactions(): CompactionEvent[] {
    return this.loop.compactions;
  }

  /** Subscribes to `compaction`, `request`, `overflow` or `response`; returns the unsubscribe function. */
  on<Name extends keyof OpenAIConversationEvents<Body, Response>>(
    name: Name,
    listener: (payload: OpenAIConversationEvents<Body, Response>[Name]) => void,
  ): () => void {
    return this.loop.on(name, listener);
  }

  /** Compacts the working context now (trigger `manual`), with optional instructions for the strategy. */
  compact(options: { instructions?: string; signal?: AbortSignal } = {}): Promise<CompactionResult> {
    return this.loop.compact(options);
  }

  /**
   * Compacts if the trigger fires, sends the working context, appends the answer and records the usage.
   * After an overflow refusal, compacts with the `overflow` trigger and retries once; a second refusal
   * throws `ContextOverflowError`. Other SDK errors are thrown unchanged.
   */
  protected async exchange(options: OpenAISendOptions<Request>): Promise<Response> {
    const exchange = await this.loop.exchange({
      body: (messages) => this.body(messages, options.request),
      send: (body, signal) => this.call(body, signal),
      accept: ({ items }) => this.append(items),
      signal: options.signal,
    });
    return exchange.response;
  }

  /**
   * Adds a group of items to the history and the working context, converted to core messages once. Tool
   * results are named after their calls, wherever in the history the calls are.
   */
  protected append(input: readonly Item[]): void {
    if (input.length === 0) return;
    const items = input.map((item) => frozenCopy(item));
    const core = this.toCore(items);
    this.items.push(...items);
    this.loop.append(core);
  }
}

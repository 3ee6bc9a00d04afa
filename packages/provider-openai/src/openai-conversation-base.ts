import {
  type CompactionEvent,
  type CompactionResult,
  type Compactor,
  ContextOverflowError,
  EventEmitter,
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
 * group converted to core messages once (so token counts are memoized and anchored by identity), a working
 * context that compactions replace, proactive compaction before each request, usage fed back to the
 * counter, and one compaction and retry after an overflow refusal.
 */
export abstract class OpenAIConversationBase<Item extends object, Request extends object, Body, Response> {
  /** The compactor that decides and compacts; its counter is anchored on the reported usage. */
  readonly compactor: Compactor;
  private readonly emitter = new EventEmitter<OpenAIConversationEvents<Body, Response>>();
  private readonly sessionId: string | undefined;
  private readonly items: Item[] = [];
  private readonly fullCore: Message[] = [];
  private readonly toolNames = new Map<string, string>();
  private working: Message[] = [];
  private readonly events: CompactionEvent[] = [];
  private steps = 0;

  protected constructor(
    settings: OpenAIConversationBaseSettings,
    model: string,
    maxOutputTokens: number | undefined,
  ) {
    this.compactor = resolveOpenAIConversationCompactor(settings, model, maxOutputTokens);
    this.sessionId = settings.sessionId;
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
    return [...this.fullCore];
  }

  /** The working context as core messages: what the next request carries before any compaction. */
  get coreContext(): Message[] {
    return [...this.working];
  }

  /** Every compaction of this conversation, oldest first. */
  get compactions(): CompactionEvent[] {
    return [...this.events];
  }

  /** Subscribes to `compaction`, `request`, `overflow` or `response`; returns the unsubscribe function. */
  on<Name extends keyof OpenAIConversationEvents<Body, Response>>(
    name: Name,
    listener: (payload: OpenAIConversationEvents<Body, Response>[Name]) => void,
  ): () => void {
    return this.emitter.on(name, listener);
  }

  /** Compacts the working context now (trigger `manual`), with optional instructions for the strategy. */
  async compact(options: { instructions?: string; signal?: AbortSignal } = {}): Promise<CompactionResult> {
    const result = await this.compactor.compact(this.working, {
      ...this.compactOptions(options.signal),
      trigger: 'manual',
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    });
    this.adopt(result, this.steps);
    return result;
  }

  /**
   * Compacts if the trigger fires, sends the working context, appends the answer and records the usage.
   * After an overflow refusal, compacts with the `overflow` trigger and retries once; a second refusal
   * throws {@link ContextOverflowError}. Other SDK errors are thrown unchanged.
   */
  protected async exchange(options: OpenAISendOptions<Request>): Promise<Response> {
    const step = ++this.steps;
    const { signal } = options;
    this.adopt(await this.compactor.prepare(this.working, this.compactOptions(signal)), step);
    let sent = this.working;
    let exchange: OpenAIExchange<Item, Response>;
    try {
      exchange = await this.attempt(sent, options, step, 1);
    } catch (error) {
      if (!isOverflow(error, signal)) throw error;
      const overflow = this.overflowError(error);
      this.emitter.emit('overflow', { step, error: overflow });
      this.adopt(await this.compactor.recover(this.working, overflow, this.compactOptions(signal)), step);
      sent = this.working;
      try {
        exchange = await this.attempt(sent, options, step, 2);
      } catch (retryError) {
        throw isOverflow(retryError, signal) ? toOpenAICompactionError(retryError) : retryError;
      }
    }
    if (exchange.inputTokens !== undefined) {
      this.compactor.recordUsage({ messages: sent, inputTokens: exchange.inputTokens });
    }
    this.append(exchange.items);
    this.emitter.emit('response', { step, response: exchange.response, inputTokens: exchange.inputTokens });
    return exchange.response;
  }

  /**
   * Adds a group of items to the history and the working context, converted to core messages once. Tool
   * results are named after their calls, wherever in the history the calls are.
   */
  protected append(input: readonly Item[]): void {
    if (input.length === 0) return;
    const items = input.map((item) => frozenCopy(item));
    const core = this.toCore(items).map((message) => this.nameResults(message));
    for (const message of core) {
      if (message.role !== 'assistant') continue;
      for (const part of message.content) {
        if (part.type === 'tool-call') this.toolNames.set(part.toolCallId, part.toolName);
      }
    }
    this.items.push(...items);
    this.fullCore.push(...core);
    this.working = [...this.working, ...core];
  }

  private async attempt(
    messages: Message[],
    options: OpenAISendOptions<Request>,
    step: number,
    attempt: number,
  ): Promise<OpenAIExchange<Item, Response>> {
    const body = this.body(messages, options.request);
    this.emitter.emit('request', { step, attempt, body });
    return this.call(body, options.signal);
  }

  /**
   * The refusal as a {@link ContextOverflowError}. A refusal that does not say how long the request was (the
   * Responses API's does not) is taken to be one token over the window, or over the count when that is
   * larger: the compactor then shrinks its limit and target by how far its count fell short.
   */
  private overflowError(error: unknown): ContextOverflowError {
    const overflow = toOpenAICompactionError(error) as ContextOverflowError;
    if (overflow.requestTokens !== undefined) return overflow;
    const counted = this.compactor.counter.count(this.working);
    return new ContextOverflowError({
      provider: overflow.provider,
      message: overflow.message,
      cause: error,
      requestTokens: Math.max(this.compactor.budget.contextWindow, counted) + 1,
      ...(overflow.maximumTokens === undefined ? {} : { maximumTokens: overflow.maximumTokens }),
    });
  }

  private compactOptions(signal: AbortSignal | undefined) {
    return {
      ...(this.sessionId === undefined ? {} : { sessionId: this.sessionId }),
      ...(signal === undefined ? {} : { abortSignal: signal }),
    };
  }

  private adopt(result: CompactionResult, step: number): void {
    if (!result.compacted) return;
    this.working = result.messages;
    if (result.event !== undefined) {
      this.events.push(result.event);
      this.emitter.emit('compaction', { step, event: result.event });
    }
  }

  private nameResults(message: Message): Message {
    if (message.role !== 'tool' || message.content.every((part) => part.toolName !== '')) return message;
    return {
      ...message,
      content: message.content.map((part) =>
        part.toolName === '' ? { ...part, toolName: this.toolNames.get(part.toolCallId) ?? '' } : part,
      ),
    };
  }
}

/** A deep copy of a JSON value, frozen all the way down, so neither the caller nor the SDK can change it. */
export function frozenCopy<Value>(value: Value): Value {
  return deepFreeze(structuredClone(value));
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Whether a failed call was refused as too long (and not aborted by the caller). */
function isOverflow(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted !== true && parseOpenAIContextOverflow(error) !== undefined;
}

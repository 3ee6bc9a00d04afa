import type {
  CompactionEvent,
  CompactionResult,
  Compactor,
  ContextOverflow,
  Message,
} from '@compaction/core';
import { callWithCompaction } from './call-with-compaction.js';
import type { ConversationLoopEvents } from './conversation-loop-events.js';
import { EventEmitter } from './event-emitter.js';
import { fromNativeCompaction, type IsNativeCompactionPart } from './native-compaction-start.js';

/** Settings of a {@link ConversationLoop}. */
export interface ConversationLoopSettings {
  /** Decides and compacts; its counter is anchored on the usage the API reports. */
  compactor: Compactor;
  /** The session compactions are recorded under. Default: the compactor's (`default`). */
  sessionId?: string | undefined;
  /** Recognises the provider's "too long" refusals (the adapter's `parseContextOverflow`). */
  parseContextOverflow: (error: unknown) => ContextOverflow | undefined;
  /** Maps an SDK failure to a typed error; for a refusal, a `ContextOverflowError`. */
  toCompactionError: (error: unknown) => Error;
  /** Recognises a provider's own compaction; the working context then starts from the latest one. */
  isNativeCompactionPart?: IsNativeCompactionPart | undefined;
}

/** What one model call returned: the SDK's response and the input tokens it reported (cached ones included). */
export interface ConversationExchange<Response, InputTokens extends number | undefined = number | undefined> {
  response: Response;
  inputTokens: InputTokens;
}

/** How one model call of an adapter is made; see {@link ConversationLoop.exchange}. */
export interface ConversationCall<Body, Exchange> {
  /** Builds the request body for a working context. */
  body: (messages: Message[]) => Body;
  /** Sends a body with the SDK; throws what the SDK throws. */
  send: (body: Body, signal: AbortSignal | undefined) => Promise<Exchange>;
  /** Adds the answer to the adapter's history (its SDK items and, through {@link ConversationLoop.append}, core messages). */
  accept: (exchange: Exchange) => void;
  /** Aborts the compaction and the request. */
  signal?: AbortSignal | undefined;
}

/**
 * The provider-independent part of an adapter's conversation: the full history as core messages, a working
 * context that compactions replace, proactive compaction before each request, usage fed back to the
 * compactor's counter, and a compaction (trigger `overflow`) and retry after the API refused a request as
 * too long, as {@link callWithCompaction} does for every caller: when its last retry is refused too it throws
 * `OverflowRetriesExhaustedError` (a `ContextOverflowError`); other SDK errors are thrown unchanged. The
 * adapter keeps the SDK-shaped history, converts each new SDK message to core messages once (so their
 * identity, and the memoized counts, stay stable) and passes in how to build and send a request.
 */
export class ConversationLoop<Body, Response, InputTokens extends number | undefined = number | undefined> {
  /** The compactor that decides and compacts. */
  readonly compactor: Compactor;
  private readonly settings: ConversationLoopSettings;
  private readonly emitter = new EventEmitter<ConversationLoopEvents<Body, Response, InputTokens>>();
  private readonly fullHistory: Message[] = [];
  private readonly toolNames = new Map<string, string>();
  private readonly events: CompactionEvent[] = [];
  private working: Message[] = [];
  private steps = 0;

  constructor(settings: ConversationLoopSettings) {
    this.compactor = settings.compactor;
    this.settings = settings;
  }

  /** The full history as core messages, never compacted. */
  get history(): Message[] {
    return [...this.fullHistory];
  }

  /** The working context: what the next request carries before any compaction it triggers. */
  get context(): Message[] {
    return [...this.working];
  }

  /** Every compaction of this conversation, oldest first. */
  get compactions(): CompactionEvent[] {
    return [...this.events];
  }

  /** Subscribes to `compaction`, `request`, `overflow` or `response`; returns the unsubscribe function. */
  on<Name extends keyof ConversationLoopEvents<Body, Response, InputTokens>>(
    name: Name,
    listener: (payload: ConversationLoopEvents<Body, Response, InputTokens>[Name]) => void,
  ): () => void {
    return this.emitter.on(name, listener);
  }

  /**
   * Adds core messages to the history and the working context. Tool results without a tool name (their call
   * is older than the SDK message the adapter converted) are named after their call, wherever in the history
   * it is. Returns the messages as added.
   */
  append(messages: readonly Message[]): Message[] {
    const named = messages.map((message) => this.nameResults(message));
    for (const message of named) {
      if (message.role !== 'assistant') continue;
      for (const part of message.content) {
        if (part.type === 'tool-call') this.toolNames.set(part.toolCallId, part.toolName);
      }
    }
    this.fullHistory.push(...named);
    this.working = [...this.working, ...named];
    const { isNativeCompactionPart } = this.settings;
    if (isNativeCompactionPart !== undefined) {
      this.working = [...fromNativeCompaction(this.working, isNativeCompactionPart)];
    }
    return named;
  }

  /**
   * Compacts the working context now (trigger `manual`), with optional instructions for the strategy; with
   * `force`, even under the target (core's `CompactOptions.force`).
   */
  async compact(
    options: { instructions?: string; signal?: AbortSignal; force?: boolean } = {},
  ): Promise<CompactionResult> {
    const result = await this.compactor.compact(this.working, {
      ...this.compactOptions(options.signal),
      trigger: 'manual',
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      ...(options.force === true ? { force: true } : {}),
    });
    this.adopt(result, this.steps);
    return result;
  }

  /**
   * One model call, wrapped by {@link callWithCompaction}: compacts if the trigger fires, sends the working
   * context, records the reported usage against the messages sent, lets the adapter add the answer, and emits
   * `response`. After an overflow refusal it compacts with the `overflow` trigger and retries, as the one
   * overflow policy says.
   */
  async exchange<Exchange extends ConversationExchange<Response, InputTokens>>(
    call: ConversationCall<Body, Exchange>,
  ): Promise<Exchange> {
    const step = ++this.steps;
    const { signal } = call;
    const { result: exchange } = await callWithCompaction({
      compactor: this.compactor,
      messages: this.working,
      sessionId: this.settings.sessionId,
      signal,
      parseContextOverflow: this.settings.parseContextOverflow,
      toCompactionError: this.settings.toCompactionError,
      send: (messages, attempt) => {
        const body = call.body(messages);
        this.emitter.emit('request', { step, attempt, body });
        return call.send(body, signal);
      },
      inputTokens: (sent) => sent.inputTokens,
      onOverflow: (error) => this.emitter.emit('overflow', { step, error }),
      onCompaction: (result) => {
        this.adopt(result, step);
        return undefined;
      },
    });
    call.accept(exchange);
    this.emitter.emit('response', { step, response: exchange.response, inputTokens: exchange.inputTokens });
    return exchange;
  }

  /** Emits a `note` event for the note turn before the next model call. */
  reportNote(note: Omit<ConversationLoopEvents<Body, Response, InputTokens>['note'], 'step'>): void {
    this.emitter.emit('note', { step: this.steps + 1, ...note });
  }

  private compactOptions(signal: AbortSignal | undefined) {
    return {
      ...(this.settings.sessionId === undefined ? {} : { sessionId: this.settings.sessionId }),
      ...(signal === undefined ? {} : { abortSignal: signal }),
    };
  }

  /** Makes a compaction's result the working context. */
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

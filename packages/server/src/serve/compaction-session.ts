import {
  type CompactionEvent,
  type CompactionStore,
  type CompactOptions,
  type Compactor,
  type CompactorObserver,
  createFastEstimator,
  createTokenCounter,
  type JSONValue,
  type Message,
  type Provider,
  type StrategyRegistry,
} from '@compaction/core';
import { backgroundMisfit } from '../config/background-flags.js';
import type { CompactionSettings } from '../config/resolve-settings.js';
import { HttpError } from '../errors/http-error.js';
import {
  type CompactionObserver,
  observeCompactor,
  strategyLabelOf,
} from '../observability/service-observability.js';
import { contextWindowOf } from '../run-compaction.js';
import { createThreadedCompactor } from '../workers/threaded-compactor.js';
import type { StrategyThreads } from '../workers/threaded-strategy.js';
import { type BackgroundSlots, SessionBackground } from './background-slots.js';
import { messagesBytes } from './message-bytes.js';
import type { ConversationShape, ServedFormat } from './request-conversation.js';
import type { SessionPersistence, StoredSession } from './session-persistence.js';

/** Why a session's event stream ended. */
export type SessionEndReason = 'deleted' | 'expired' | 'shutdown';

/** What an event stream hears from its session. */
export interface SessionListener {
  compacted(event: CompactionEvent): void;
  ended(reason: SessionEndReason): void;
}

/** Runs an operation in a compaction slot (see `CompactionLimiter`); by default at once. */
export type SlotRunner = <T>(operation: () => Promise<T>) => Promise<T>;

const runNow: SlotRunner = (operation) => operation();

/** How many `Idempotency-Key`s of its newest appends a session remembers. */
export const keptRequestKeys = 100;

/** How many compaction events a session keeps; older ones are dropped (the count stays). */
export const keptCompactionEvents = 100;

/** What a session is besides its Compactor: its format and shape, its limits, and where it is kept. */
export interface SessionOptions {
  /** The format its conversation arrives and is answered in. Default `core`. */
  format?: ServedFormat;
  /** The request fields and shape of the conversation it began with; none for a format's plain shape. */
  shape?: ConversationShape;
  /** The request's `config`, kept so a restored session is built the same way. */
  config?: JSONValue;
  /** Largest size of its messages as JSON, in bytes. */
  maxBytes?: number;
  /** Where its Compactor records each compaction and the messages it removed. */
  store?: CompactionStore;
  /**
   * Whether other servers share the store (it has `withSessionLock`): each change then runs holding the
   * session's lock, on the session as the store has it, and commits with the store's writes.
   */
  shared?: boolean;
  /**
   * The server's compaction threads: the strategy of a compaction of a large history runs there, so that it
   * does not hold up other requests. None runs every compaction on the event loop.
   */
  threads?: StrategyThreads;
  /** What hears its compactions: the server's metrics and log. */
  observer?: CompactionObserver;
  /** What traces its Compactor's work, as spans of the request that runs it. */
  compactorObservers?: readonly CompactorObserver[];
  /**
   * The server's background compaction: the setting its Compactor gets, and the cap it shares with the other
   * sessions. A session whose budget the setting does not fit (a request's config moved the trigger under
   * where background compaction starts) compacts in line only.
   */
  background?: BackgroundSlots;
  /** What it was when the server stopped, for a session restored from the store. */
  restored?: {
    sequence: number;
    createdAt: string;
    lastActiveAt: number;
    messages: Message[];
    /** Its compaction events, oldest first. */
    events: CompactionEvent[];
    /** The `Idempotency-Key`s of its newest appends. */
    appliedRequests?: string[];
  };
}

/**
 * One conversation kept by the server: its messages, a Compactor that compacts them when the trigger fires,
 * the newest compaction events, and the listeners of its event stream. Operations run one at a time, in
 * arrival order, so concurrent appends and compactions never lose messages.
 */
export class CompactionSession {
  readonly id: string;
  readonly createdAt: string;
  readonly format: ServedFormat;
  readonly shape: ConversationShape | undefined;
  /** Its creation number among the server's sessions; set when the server lists it. */
  sequence = 0;
  messages: Message[] = [];
  /** The newest compaction events, at most {@link keptCompactionEvents}. */
  readonly compactions: CompactionEvent[] = [];
  /** Compactions since the session began, including those no longer kept. */
  compactionCount = 0;
  /** `Date.now()` of the last request that used the session. */
  lastActiveAt = Date.now();
  private readonly config: JSONValue | undefined;
  private readonly compactor: Compactor;
  private readonly maxBytes: number;
  private readonly listeners = new Set<SessionListener>();
  private persistence: SessionPersistence | undefined;
  /** The `Idempotency-Key`s of the newest appends, oldest first, at most {@link keptRequestKeys}. */
  private appliedRequests: readonly string[] = [];
  private readonly lock: CompactionStore['withSessionLock'];
  private queue: Promise<unknown> = Promise.resolve();
  private pending = 0;

  private constructor(id: string, compactor: Compactor, options: SessionOptions) {
    this.id = id;
    this.compactor = compactor;
    this.format = options.format ?? 'core';
    this.shape = options.shape;
    this.config = options.config;
    this.maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    this.lock = options.shared ? options.store?.withSessionLock?.bind(options.store) : undefined;
    const { restored } = options;
    this.createdAt = restored?.createdAt ?? new Date().toISOString();
    if (restored !== undefined) {
      this.sequence = restored.sequence;
      this.lastActiveAt = restored.lastActiveAt;
      this.messages = restored.messages;
      this.appliedRequests = restored.appliedRequests ?? [];
      this.compactionCount = restored.events.length;
      this.compactions.push(...restored.events.slice(-keptCompactionEvents));
    }
    compactor.on('end', (event) => {
      this.compactionCount++;
      this.compactions.push(event);
      if (this.compactions.length > keptCompactionEvents) this.compactions.shift();
      for (const listener of this.listeners) listener.compacted(event);
    });
  }

  /** Creates a session with its own Compactor built from the settings. */
  static async create(
    id: string,
    settings: CompactionSettings,
    registry: StrategyRegistry,
    provider: Provider | undefined,
    options: SessionOptions = {},
  ): Promise<CompactionSession> {
    const budget = { ...settings.budget, contextWindow: contextWindowOf(settings, provider) };
    const slots = options.background;
    const background =
      slots === undefined || backgroundMisfit(slots.settings, budget) !== undefined
        ? undefined
        : new SessionBackground(slots);
    const compactor = await createThreadedCompactor(
      settings.config,
      registry,
      provider,
      {
        budget,
        ...(background === undefined || slots === undefined
          ? {}
          : { background: slots.settings, hooks: background.hooks }),
        // The fast estimator, never anchored on a provider's usage: what the compaction threads count with.
        counter: createTokenCounter(createFastEstimator()),
        // With a store, what strategies remove stays recallable (GET /v1/sessions/{id}/archive/{handle}).
        ...(options.store === undefined ? {} : { store: options.store, archive: true }),
        ...(options.compactorObservers?.length ? { observers: options.compactorObservers } : {}),
      },
      options.threads,
    );
    background?.follow(compactor);
    if (options.observer !== undefined) {
      observeCompactor(compactor, options.observer, strategyLabelOf(settings.strategyNames), id);
    }
    return new CompactionSession(id, compactor, options);
  }

  /** From now on, saves every change of the session and (in batches) every use of it. */
  keepIn(persistence: SessionPersistence): void {
    this.persistence = persistence;
  }

  /** What the store keeps of the session besides its messages. */
  stored(): StoredSession {
    return {
      version: 1,
      sequence: this.sequence,
      createdAt: this.createdAt,
      lastActiveAt: new Date(this.lastActiveAt).toISOString(),
      format: this.format,
      ...(this.shape === undefined ? {} : { shape: this.shape }),
      ...(this.config === undefined ? {} : { config: this.config }),
      ...(this.appliedRequests.length === 0 ? {} : { appliedRequests: [...this.appliedRequests] }),
    };
  }

  /** Tokens of the current messages. */
  tokens(): number {
    return this.compactor.counter.count(this.messages);
  }

  /** Bytes of the current messages as JSON. */
  bytes(): number {
    return messagesBytes(this.messages);
  }

  /** The budget in tokens. */
  budget() {
    const { limit, trigger, target, contextWindow } = this.compactor.budget;
    return { contextWindow, limit, trigger, target };
  }

  /** Whether an operation is running or waiting; a busy session does not expire. */
  get busy(): boolean {
    return this.pending > 0;
  }

  /** Resolves once no operation of the session is running or waiting (whatever their outcome). */
  async settled(): Promise<void> {
    while (this.pending > 0) await this.queue;
  }

  /** Marks the session as used now. */
  touch(): void {
    this.lastActiveAt = Date.now();
    this.persistence?.touched(this);
  }

  /**
   * Appends messages, then compacts automatically when the trigger fires. Refused with 413 when the
   * session would pass its size limit; the session is then left as it was. The messages are read by
   * `read` once the operations before this one are done, so it sees the messages they left.
   */
  append(
    read: Message[] | ((current: readonly Message[]) => Promise<Message[]>),
    runInSlot: SlotRunner = runNow,
    requestKey?: string,
  ): Promise<{ compacted: boolean; event?: CompactionEvent }> {
    // An append whose key was applied already is answered with the session as it is, and not applied again.
    const applied = () => requestKey !== undefined && this.appliedRequests.includes(requestKey);
    const added = (current: readonly Message[]) =>
      typeof read === 'function' ? read(current) : Promise.resolve(read);
    // Shared: the messages are read against the session as the store has it, under the lock.
    if (this.lock !== undefined && this.persistence !== undefined) {
      return this.serialize(() =>
        runInSlot(() =>
          this.exclusively(async () =>
            applied() ? { compacted: false } : this.appendNow(await added(this.messages), requestKey),
          ),
        ),
      );
    }
    return this.serialize(async () => {
      if (applied()) return { compacted: false };
      const messages = await added(this.messages);
      return runInSlot(() => this.appendNow(messages, requestKey));
    });
  }

  private async appendNow(
    added: Message[],
    requestKey: string | undefined,
  ): Promise<{ compacted: boolean; event?: CompactionEvent }> {
    const current = this.bytes();
    const addedBytes = messagesBytes(added);
    if (current + addedBytes > this.maxBytes) {
      throw new HttpError({
        status: 413,
        errorCode: 'session-too-large',
        message:
          `session "${this.id}" holds ${current} bytes of messages and these ${added.length} add ${addedBytes}, ` +
          `over its limit of ${this.maxBytes} bytes; compact it (POST /v1/sessions/${this.id}/compact) or start a new one`,
      });
    }
    const result = await this.compactor.prepare([...this.messages, ...added], { sessionId: this.id });
    // The key is saved with the messages, in the same write: a retry finds both or neither.
    const previousRequests = this.appliedRequests;
    if (requestKey !== undefined) {
      this.appliedRequests = [...previousRequests, requestKey].slice(-keptRequestKeys);
    }
    try {
      // Saved before it becomes the session's, so what a request was told is what a restart finds.
      await this.persistence?.save(this, result.messages);
    } catch (error) {
      this.appliedRequests = previousRequests;
      throw error;
    }
    this.messages = result.messages;
    return {
      compacted: result.compacted,
      ...(result.event === undefined ? {} : { event: result.event }),
    };
  }

  /**
   * Reads the session again from a store other servers share, since one of them may have changed it; a session
   * another server deleted is 404. Nothing to do when the store is not shared.
   */
  async refresh(): Promise<void> {
    if (this.lock === undefined || this.persistence === undefined) return;
    const state = await this.persistence.read(this.id);
    if (state === undefined) {
      throw new HttpError({
        status: 404,
        errorCode: 'session-not-found',
        message: `no session "${this.id}"`,
      });
    }
    this.messages = state.messages;
    this.appliedRequests = state.stored.appliedRequests ?? [];
    this.compactionCount = state.events.length;
    this.compactions.splice(0, this.compactions.length, ...state.events.slice(-keptCompactionEvents));
  }

  /**
   * Runs a change holding the session's lock in a shared store, on the session as the store has it; its
   * writes commit together when it succeeds. On a failure the session is read again, as nothing was written.
   */
  private exclusively<T>(operation: () => Promise<T>): Promise<T> {
    const lock = this.lock;
    if (lock === undefined || this.persistence === undefined) return operation();
    return lock(this.id, async () => {
      await this.refresh();
      return operation();
    }).catch(async (error: unknown) => {
      await this.refresh().catch(() => undefined);
      throw storeFailure(error, this.id);
    });
  }

  /**
   * Compacts now (a manual compaction), with optional instructions; `force` compacts even a history under the
   * target.
   */
  compact(instructions: string | undefined, runInSlot: SlotRunner = runNow, force = false) {
    const options: CompactOptions = {
      sessionId: this.id,
      trigger: 'manual',
      ...(instructions === undefined ? {} : { instructions }),
      ...(force ? { force } : {}),
    };
    return this.serialize(() =>
      runInSlot(() =>
        this.exclusively(async () => {
          const result = await this.compactor.compact(this.messages, options);
          if (result.compacted) await this.persistence?.save(this, result.messages);
          this.messages = result.messages;
          return result;
        }),
      ),
    );
  }

  /** Subscribes to compaction events and the end of the session; returns the unsubscribe function. */
  subscribe(listener: SessionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Tells every listener the session ended (deleted, expired, or the server stopping) and drops them. A
   * deleted or expired session is saved no more.
   */
  end(reason: SessionEndReason): void {
    // A deleted or expired session is removed from the store; a change still under way must not save it again.
    if (reason !== 'shutdown') this.persistence = undefined;
    // Its background compaction, if one is running or ready, is stopped and gives its slot back.
    this.compactor.forget(this.id);
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const listener of listeners) listener.ended(reason);
  }

  private serialize<T>(operation: () => Promise<T>): Promise<T> {
    this.pending++;
    const run = this.queue.then(operation).finally(() => {
      this.pending--;
      this.touch();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/**
 * The answer to a shared store's own failure around a change: 503 (a 503 carries Retry-After) when another
 * server held the session for the whole lock timeout, 500 `store-failed` for any other store failure. An
 * answer already decided (an HttpError) goes as it is.
 */
function storeFailure(error: unknown, id: string): unknown {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('store-')) return error;
  if (code.endsWith('/lock-timeout')) {
    return new HttpError({
      status: 503,
      errorCode: 'session-busy',
      message: `session "${id}" is being changed by another server; try again`,
    });
  }
  return new HttpError({
    status: 500,
    errorCode: 'store-failed',
    message: `the session store failed: ${(error as Error).message}`,
  });
}

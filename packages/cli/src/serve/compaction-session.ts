import {
  type CompactionEvent,
  type Compactor,
  createCompactor,
  findMessageIssues,
  type Message,
  type Provider,
  resolveCompactionConfig,
  type StrategyRegistry,
  TokenCounter,
} from '@compaction/core';
import type { CompactionSettings } from '../config/resolve-settings.js';
import { badRequest, HttpError } from '../errors/http-error.js';
import { fastEstimator } from '../estimators.js';
import { contextWindowOf } from '../run-compaction.js';
import { messagesBytes } from './message-bytes.js';

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

/** How many compaction events a session keeps; older ones are dropped (the count stays). */
export const keptCompactionEvents = 100;

/**
 * One conversation kept by the server: its messages, a Compactor that compacts them when the trigger fires,
 * the newest compaction events, and the listeners of its event stream. Operations run one at a time, in
 * arrival order, so concurrent appends and compactions never lose messages.
 */
export class CompactionSession {
  readonly id: string;
  readonly createdAt = new Date().toISOString();
  messages: Message[] = [];
  /** The newest compaction events, at most {@link keptCompactionEvents}. */
  readonly compactions: CompactionEvent[] = [];
  /** Compactions since the session began, including those no longer kept. */
  compactionCount = 0;
  /** `Date.now()` of the last request that used the session. */
  lastActiveAt = Date.now();
  private readonly compactor: Compactor;
  private readonly maxBytes: number;
  private readonly listeners = new Set<SessionListener>();
  private queue: Promise<unknown> = Promise.resolve();
  private pending = 0;

  private constructor(id: string, compactor: Compactor, maxBytes: number) {
    this.id = id;
    this.compactor = compactor;
    this.maxBytes = maxBytes;
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
    maxBytes = Number.POSITIVE_INFINITY,
  ): Promise<CompactionSession> {
    const resolved = await resolveCompactionConfig(
      settings.config,
      registry,
      provider === undefined ? {} : { provider },
    );
    const compactor = createCompactor({
      ...resolved,
      budget: { ...settings.budget, contextWindow: contextWindowOf(settings, provider) },
      counter: new TokenCounter(fastEstimator()),
      ...(provider === undefined ? {} : { provider }),
    });
    return new CompactionSession(id, compactor, maxBytes);
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

  /** Marks the session as used now. */
  touch(): void {
    this.lastActiveAt = Date.now();
  }

  /**
   * Appends messages, then compacts automatically when the trigger fires. Refused with 413 when the
   * session would pass its size limit; the session is then left as it was.
   */
  append(
    messages: unknown,
    runInSlot: SlotRunner = runNow,
  ): Promise<{ compacted: boolean; event?: CompactionEvent }> {
    const checked = checkMessages(messages);
    return this.serialize(() =>
      runInSlot(async () => {
        const current = this.bytes();
        const added = messagesBytes(checked);
        if (current + added > this.maxBytes) {
          throw new HttpError({
            status: 413,
            errorCode: 'session-too-large',
            message:
              `session "${this.id}" holds ${current} bytes of messages and these ${checked.length} add ${added}, ` +
              `over its limit of ${this.maxBytes} bytes; compact it (POST /v1/sessions/${this.id}/compact) or start a new one`,
          });
        }
        const next = [...this.messages, ...checked];
        const result = await this.compactor.prepare(next, { sessionId: this.id });
        this.messages = result.messages;
        return {
          compacted: result.compacted,
          ...(result.event === undefined ? {} : { event: result.event }),
        };
      }),
    );
  }

  /** Compacts now (a manual compaction), with optional instructions. */
  compact(instructions: string | undefined, runInSlot: SlotRunner = runNow) {
    return this.serialize(() =>
      runInSlot(async () => {
        const result = await this.compactor.compact(this.messages, {
          sessionId: this.id,
          trigger: 'manual',
          ...(instructions === undefined ? {} : { instructions }),
        });
        this.messages = result.messages;
        return result;
      }),
    );
  }

  /** Subscribes to compaction events and the end of the session; returns the unsubscribe function. */
  subscribe(listener: SessionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every listener the session ended (deleted, expired, or the server stopping) and drops them. */
  end(reason: SessionEndReason): void {
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

/** Checks that a request's `messages` is a core message list, with the first problem as a 400. */
export function checkMessages(messages: unknown): Message[] {
  const issues = findMessageIssues(messages);
  if (issues.length > 0) {
    const issue = issues[0]!;
    const where =
      issue.index < 0 ? 'messages' : `messages[${issue.index}]${issue.path ? `.${issue.path}` : ''}`;
    throw badRequest('invalid-messages', `${where}: ${issue.message}`);
  }
  return messages as Message[];
}

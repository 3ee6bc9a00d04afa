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
import { badRequest } from '../errors/http-error.js';
import { fastEstimator } from '../estimators.js';
import { contextWindowOf } from '../run-compaction.js';

/**
 * One conversation kept by the server: its messages, a Compactor that compacts them when the trigger fires,
 * the compaction events, and the listeners of its event stream. Operations run one at a time, in arrival
 * order, so concurrent appends and compactions never lose messages.
 */
export class CompactionSession {
  readonly id: string;
  readonly createdAt = new Date().toISOString();
  messages: Message[] = [];
  readonly compactions: CompactionEvent[] = [];
  private readonly compactor: Compactor;
  private readonly listeners = new Set<(event: CompactionEvent) => void>();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(id: string, compactor: Compactor) {
    this.id = id;
    this.compactor = compactor;
    compactor.on('end', (event) => {
      this.compactions.push(event);
      for (const listener of this.listeners) listener(event);
    });
  }

  /** Creates a session with its own Compactor built from the settings. */
  static async create(
    id: string,
    settings: CompactionSettings,
    registry: StrategyRegistry,
    provider: Provider | undefined,
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
    return new CompactionSession(id, compactor);
  }

  /** Tokens of the current messages. */
  tokens(): number {
    return this.compactor.counter.count(this.messages);
  }

  /** The budget in tokens. */
  budget() {
    const { limit, trigger, target, contextWindow } = this.compactor.budget;
    return { contextWindow, limit, trigger, target };
  }

  /** Appends messages, then compacts automatically when the trigger fires. */
  append(messages: unknown): Promise<{ compacted: boolean; event?: CompactionEvent }> {
    const checked = checkMessages(messages);
    return this.serialize(async () => {
      const next = [...this.messages, ...checked];
      const result = await this.compactor.prepare(next, { sessionId: this.id });
      this.messages = result.messages;
      return { compacted: result.compacted, ...(result.event === undefined ? {} : { event: result.event }) };
    });
  }

  /** Compacts now (a manual compaction), with optional instructions. */
  compact(instructions: string | undefined) {
    return this.serialize(async () => {
      const result = await this.compactor.compact(this.messages, {
        sessionId: this.id,
        trigger: 'manual',
        ...(instructions === undefined ? {} : { instructions }),
      });
      this.messages = result.messages;
      return result;
    });
  }

  /** Subscribes to compaction events; returns the unsubscribe function. */
  subscribe(listener: (event: CompactionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private serialize<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.queue.then(operation);
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

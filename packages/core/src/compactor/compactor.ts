import { type Budget, type BudgetOptions, resolveBudget } from '../budget/budget.js';
import { BudgetUnreachableError } from '../errors/budget-unreachable-error.js';
import { CompactionAbortedError } from '../errors/compaction-aborted-error.js';
import { ContextOverflowError } from '../errors/context-overflow-error.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { RuleViolationError } from '../errors/rule-violation-error.js';
import { present } from '../json.js';
import type { Message } from '../messages/message.js';
import type {
  CompactionBudget,
  CompactionInput,
  CompactionOutput,
  CompactionStrategy,
  CompactionTrigger,
} from '../specs/compaction-strategy-v1.js';
import type { ContextOverflow, Provider } from '../specs/provider-v1.js';
import type { TokenEstimator } from '../specs/token-estimator-v1.js';
import type { CompactionStore } from '../store/compaction-store.js';
import {
  type AnchoredTokenCounter,
  createTokenCounter,
  type ReportedUsage,
} from '../tokens/token-counter.js';
import type { RepairOptions } from '../turns/repair.js';
import { repairHistory } from '../turns/repair-history.js';
import { deepEqual } from '../verify/deep-equal.js';
import { verifyCompaction } from '../verify/verify-compaction.js';
import type { CompactionEvent, CompactionFailure, CompactorEvents, SkipReason } from './compaction-event.js';
import { describeFailure, finalError, isAbort } from './compaction-failures.js';
import type { CompactionHooks } from './compaction-hooks.js';
import { CompactorSessions, type SessionState } from './compactor-sessions.js';

/** Settings of {@link createCompactor}. */
export interface CompactorSettings {
  /** The strategy that compacts. */
  strategy: CompactionStrategy;
  /** Run when the strategy throws or its result breaks a rule. Without one, such a failure throws. */
  fallback?: CompactionStrategy;
  budget: BudgetOptions;
  /** Counts tokens; defaults to a counter over `estimator`. Share one counter across a conversation. */
  counter?: AnchoredTokenCounter;
  /** The estimator of the default counter. Ignored when `counter` is given. */
  estimator?: TokenEstimator;
  /** Recognises the provider's context-overflow errors for {@link Compactor.recover}. */
  provider?: Provider;
  /**
   * How {@link Compactor.prepare} counts: `estimate` (default) with the counter alone, or `provider` with one
   * call of the provider's `countTokens` per `prepare` (Anthropic's count_tokens, OpenAI's input token count),
   * recorded on the counter as usage, so later counts estimate only the messages added since. A count that
   * fails, or that the provider only estimated, leaves the decision to the counter; a failure is an `error`
   * event with the source `count`. Needs a `provider` with `countTokens`.
   */
  countTokens?: 'estimate' | 'provider';
  /** Records every compaction and the messages it removed. */
  store?: CompactionStore;
  hooks?: CompactionHooks;
  /** How damaged histories are repaired before compacting; see {@link RepairOptions}. */
  repair?: RepairOptions;
  /**
   * Guards against compaction loops: after an automatic compaction that could not get under the trigger,
   * automatic compaction waits for this many new messages (unless the limit itself is crossed). Default 4.
   */
  minimumNewMessages?: number;
  /** Makes event ids. Defaults to `crypto.randomUUID()`. */
  generateId?: () => string;
  /**
   * How many sessions' state (rounds, the last result, compactions under way) is kept; beyond it the least
   * recently used session with nothing under way is forgotten, as by {@link Compactor.forget}. Default 1000.
   */
  maximumSessions?: number;
}

/** What {@link Compactor.check} found. */
export interface CheckResult {
  tokens: number;
  limit: number;
  trigger: number | null;
  target: number;
  /** `tokens / limit`. */
  utilization: number;
  shouldCompact: boolean;
  /** Why it should or should not compact. */
  reason: 'over-limit' | 'over-trigger' | SkipReason;
}

/** Options of one compaction. */
export interface CompactOptions {
  /** Default `manual`. */
  trigger?: CompactionTrigger;
  /** Extra instructions for the strategy, such as the text of a manual `/compact ...`. */
  instructions?: string;
  /** Compactions of one session run one at a time. Default `default`. */
  sessionId?: string;
  abortSignal?: AbortSignal;
  /** What the provider said when it refused the request (the `overflow` trigger). */
  overflow?: ContextOverflow;
}

/** The outcome of a compaction request. */
export interface CompactionResult {
  /** The history to use: compacted, or the input (repaired, if it needed it) when nothing was compacted. */
  messages: Message[];
  compacted: boolean;
  /** The record of the compaction, when one happened. */
  event?: CompactionEvent;
  /** Why nothing was compacted, when nothing was. */
  skipped?: SkipReason;
  /**
   * The strategies that failed, in the order they ran: before the fallback produced the result
   * (`event.usedFallback`), or, from {@link Compactor.prepare}, before it kept the history unchanged because
   * it still fit. Empty when none failed.
   */
  failures: CompactionFailure[];
}

/**
 * Decides when to compact, runs the strategy, verifies the result and records it. Never mutates the
 * histories it is given: the caller's original history is always intact, whatever happens.
 */
export class Compactor {
  readonly counter: AnchoredTokenCounter;
  readonly budget: Budget;
  private readonly settings: CompactorSettings;
  private readonly listeners = new Map<keyof CompactorEvents, Set<(payload: never) => void>>();
  private readonly sessions: CompactorSessions<CompactionResult>;

  constructor(settings: CompactorSettings) {
    this.settings = settings;
    this.budget = resolveBudget(settings.budget);
    const maximumSessions = settings.maximumSessions ?? defaultMaximumSessions;
    if (!Number.isInteger(maximumSessions) || maximumSessions < 1) {
      throw new InvalidOptionsError({
        subject: 'Compactor',
        issues: [{ path: 'maximumSessions', message: 'must be a positive integer' }],
      });
    }
    const { countTokens } = settings;
    const countable = settings.provider?.countTokens !== undefined;
    if (
      countTokens !== undefined &&
      countTokens !== 'estimate' &&
      (countTokens !== 'provider' || !countable)
    ) {
      throw new InvalidOptionsError({
        subject: 'Compactor',
        issues: [
          { path: 'countTokens', message: 'must be "estimate", or "provider" with a provider that counts' },
        ],
      });
    }
    this.sessions = new CompactorSessions(maximumSessions);
    this.counter = settings.counter ?? createTokenCounter(settings.estimator);
  }

  /** Subscribes to `start`, `end`, `skipped` or `error`; returns the unsubscribe function. */
  on<Name extends keyof CompactorEvents>(
    name: Name,
    listener: (payload: CompactorEvents[Name]) => void,
  ): () => void {
    const set = this.listeners.get(name) ?? new Set();
    this.listeners.set(name, set.add(listener as (payload: never) => void));
    return () => set.delete(listener as (payload: never) => void);
  }

  /**
   * Forgets what the Compactor keeps for a session: its rounds (a later compaction of the session is round 1
   * again), its last result and the single-flight record. Call it when a conversation ends. A compaction of
   * the session already under way still completes.
   */
  forget(sessionId: string): void {
    this.sessions.forget(sessionId);
  }

  /** Records the input tokens a provider reported for the messages sent, anchoring later counts. */
  recordUsage(usage: ReportedUsage): void {
    this.counter.recordUsage(usage);
  }

  /** Counts the history and says whether automatic compaction should run now, and why. */
  check(messages: readonly Message[], options: { sessionId?: string } = {}): CheckResult {
    const tokens = this.counter.count(messages);
    const { limit, trigger, target } = this.budget;
    const decide = (shouldCompact: boolean, reason: CheckResult['reason']): CheckResult => ({
      tokens,
      limit,
      trigger,
      target,
      utilization: tokens / limit,
      shouldCompact,
      reason,
    });
    if (trigger === null) return decide(false, 'disabled');
    if (tokens <= trigger) return decide(false, 'under-trigger');
    if (messages.length < this.budget.minimumMessages) return decide(false, 'too-few-messages');
    if (tokens > limit) return decide(true, 'over-limit');
    const last = this.sessions.find(options.sessionId ?? 'default')?.last;
    if (last !== undefined) {
      const added = messagesAddedSince(last.output, messages);
      if (added === 0) return decide(false, 'no-new-messages');
      if (last.tokensAfter > trigger && added < (this.settings.minimumNewMessages ?? 4)) {
        return decide(false, 'back-to-back');
      }
    }
    return decide(true, 'over-trigger');
  }

  /**
   * The proactive helper for agent loops: call it before each model call and send the messages it returns.
   * Compacts when {@link check} says so. If compaction fails while the history still fits under the limit,
   * the failure is emitted as an `error` event and the history is returned unchanged; otherwise it throws.
   */
  async prepare(
    messages: readonly Message[],
    options: Omit<CompactOptions, 'trigger'> = {},
  ): Promise<CompactionResult> {
    const sessionId = options.sessionId ?? 'default';
    await this.countWithProvider(messages, sessionId);
    // Single flight, looked up after the last await so that calls made together see each other.
    const underWay = this.sessions.find(sessionId)?.automatic;
    if (underWay !== undefined && startsWith(messages, underWay.input)) {
      const shared = await underWay.result.catch(() => undefined);
      if (shared?.compacted) {
        const appended = messages.slice(underWay.input.length);
        if (appended.length === 0) return { ...shared, messages: [...shared.messages] };
        // Messages came after the history the shared compaction started from: they follow its result.
        return this.prepare([...shared.messages, ...appended], options);
      }
    }
    const check = this.check(messages, { sessionId });
    if (!check.shouldCompact) {
      const skipped = check.reason as SkipReason;
      if (skipped !== 'under-trigger') {
        this.emit('skipped', { sessionId, trigger: 'auto', reason: skipped, tokens: check.tokens });
      }
      return { messages: [...messages], compacted: false, skipped, failures: [] };
    }
    const failures: CompactionFailure[] = [];
    const session = this.sessions.get(sessionId);
    const result = this.enqueue(messages, { ...options, trigger: 'auto' }, failures);
    const automatic = { input: messages, result };
    session.automatic = automatic;
    try {
      return await result;
    } catch (error) {
      if (CompactionAbortedError.isInstance(error) || check.tokens > this.budget.limit) throw error;
      return { messages: [...messages], compacted: false, failures };
    } finally {
      if (session.automatic === automatic) delete session.automatic;
    }
  }

  /**
   * The reactive helper: call it with the error a provider call threw. When the error is a context
   * overflow (recognised by the provider, or a {@link ContextOverflowError}), compacts with the `overflow`
   * trigger, which must get under the limit or throw; any other error is rethrown as is.
   */
  async recover(
    messages: readonly Message[],
    error: unknown,
    options: Omit<CompactOptions, 'trigger' | 'overflow'> = {},
  ): Promise<CompactionResult> {
    const overflow = ContextOverflowError.isInstance(error)
      ? {
          message: error.message,
          ...present({ requestTokens: error.requestTokens, maximumTokens: error.maximumTokens }),
        }
      : this.settings.provider?.parseContextOverflow?.(error);
    if (overflow === undefined) throw error;
    return this.compact(messages, { ...options, trigger: 'overflow', overflow });
  }

  /**
   * Compacts now. Compactions of one session are serialized. When every strategy fails it throws: the
   * `BudgetUnreachableError` of the strategy that came closest to the target, unchanged, when one could not
   * reach it; otherwise the last strategy's Compaction error (or a `StrategyFailedError` wrapping its error).
   */
  async compact(messages: readonly Message[], options: CompactOptions = {}): Promise<CompactionResult> {
    return this.enqueue(messages, options, []);
  }

  /**
   * Calls every listener of `name`. Listeners are observers: one that throws changes nothing, and its failure
   * is emitted as an `error` event with the source `listener`.
   */
  private emit<Name extends keyof CompactorEvents>(name: Name, payload: CompactorEvents[Name]): void {
    for (const listener of this.listeners.get(name) ?? []) {
      try {
        (listener as (payload: CompactorEvents[Name]) => void)(payload);
      } catch (error) {
        // A failing `error` listener has no event left to report it: it is thrown on its own, outside the emit.
        if (name === 'error') {
          queueMicrotask(() => {
            throw error;
          });
        } else {
          const { sessionId, trigger } = payload as CompactorEvents['start'];
          this.emit('error', { sessionId, trigger, error, failures: [], source: 'listener' });
        }
      }
    }
  }

  /** With `countTokens: 'provider'`, anchors the counter on the provider's exact count of `messages`. */
  private async countWithProvider(messages: readonly Message[], sessionId: string): Promise<void> {
    const provider = this.settings.provider;
    if (this.settings.countTokens !== 'provider' || provider?.countTokens === undefined) return;
    try {
      const count = await provider.countTokens({ messages: [...messages] });
      if (count.accuracy === 'exact') this.counter.recordUsage({ messages, inputTokens: count.tokens });
    } catch (error) {
      this.emit('error', { sessionId, trigger: 'auto', error, failures: [], source: 'count' });
    }
  }

  /** Runs a compaction after the session's earlier ones; the failures of its strategies go to `failures`. */
  private enqueue(
    messages: readonly Message[],
    options: CompactOptions,
    failures: CompactionFailure[],
  ): Promise<CompactionResult> {
    const sessionId = options.sessionId ?? 'default';
    const session = this.sessions.get(sessionId);
    session.underWay++;
    const run = session.running.then(() => this.run(messages, options, sessionId, session, failures));
    session.running = run.catch(() => undefined).finally(() => session.underWay--);
    return run;
  }

  private async run(
    input: readonly Message[],
    options: CompactOptions,
    sessionId: string,
    session: SessionState<CompactionResult>,
    failures: CompactionFailure[],
  ): Promise<CompactionResult> {
    const trigger = options.trigger ?? 'manual';
    const { messages, repairs } = repairHistory(input, this.settings.repair);
    const tokensBefore = this.counter.count(messages);
    const skip = (reason: SkipReason): CompactionResult => {
      this.emit('skipped', { sessionId, trigger, reason, tokens: tokensBefore });
      return { messages, compacted: false, skipped: reason, failures };
    };

    let instructions = options.instructions;
    const decision = await this.observed({ sessionId, trigger, failures, source: 'hook' }, () =>
      this.settings.hooks?.beforeCompaction?.({
        sessionId,
        trigger,
        messages,
        tokens: tokensBefore,
        ...present({ instructions }),
      }),
    );
    if (decision?.cancel && trigger !== 'overflow') return skip('cancelled');
    if (decision?.instructions !== undefined) instructions = decision.instructions;

    const budget = this.budgetFor(trigger, tokensBefore, options.overflow);
    if (trigger !== 'overflow' && tokensBefore <= budget.target) return skip('under-target');

    this.emit('start', { sessionId, trigger, tokens: tokensBefore, messages: messages.length });
    const startedAt = new Date().toISOString();
    const started = performance.now();
    const round = session.rounds + 1;
    const context = {
      trigger,
      round,
      sessionId,
      ...present({ instructions, abortSignal: options.abortSignal }),
    };
    const strategies = [this.settings.strategy, ...(this.settings.fallback ? [this.settings.fallback] : [])];
    const errors: unknown[] = [];

    for (const [index, strategy] of strategies.entries()) {
      let attempt: { output: CompactionOutput; tokens: number };
      try {
        attempt = await this.attempt(strategy, messages, tokensBefore, budget, context);
      } catch (error) {
        if (isAbort(error, options.abortSignal)) {
          const aborted = CompactionAbortedError.isInstance(error)
            ? error
            : new CompactionAbortedError({ cause: error });
          this.emit('error', { sessionId, trigger, error: aborted, failures, source: 'compaction' });
          throw aborted;
        }
        errors.push(error);
        failures.push(describeFailure(strategy.name, error));
        continue;
      }
      const { output, tokens } = attempt;
      const event: CompactionEvent = {
        id: this.settings.generateId?.() ?? globalThis.crypto.randomUUID(),
        sessionId,
        round,
        trigger,
        strategy: strategy.name,
        usedFallback: index > 0,
        tokensBefore,
        tokensAfter: tokens,
        messagesBefore: messages.length,
        messagesAfter: output.messages.length,
        durationMs: performance.now() - started,
        startedAt,
        failures: [...failures],
        repairs,
        ...present({ summary: output.summary, instructions, details: output.details }),
      };
      const { store } = this.settings;
      if (store !== undefined) {
        const kept = new Set(output.messages);
        const removedMessages = messages.filter((message) => !kept.has(message));
        // Unrecorded, the removed messages could not be recalled: the compaction fails, the caller keeps the
        // history it has, and the session stays where it was.
        await this.observed({ sessionId, trigger, failures, source: 'store' }, () =>
          store.append({ event, removedMessages }),
        );
      }
      session.rounds = round;
      session.last = { output: output.messages, tokensAfter: tokens, trigger };
      try {
        await this.settings.hooks?.afterCompaction?.(event);
      } catch (error) {
        // The compaction is recorded and stands; the hook's failure is reported, not thrown.
        this.emit('error', { sessionId, trigger, error, failures, source: 'hook' });
      }
      this.emit('end', event);
      return { messages: output.messages, compacted: true, event, failures };
    }

    const error = finalError(errors, this.settings.strategy.name);
    this.emit('error', { sessionId, trigger, error, failures, source: 'compaction' });
    throw error;
  }

  /** Runs a side effect whose failure ends the compaction: the failure is emitted, then thrown. */
  private async observed<Result>(
    context: Omit<CompactorEvents['error'], 'error'>,
    effect: () => Result | Promise<Result>,
  ): Promise<Result> {
    try {
      return await effect();
    } catch (error) {
      this.emit('error', { ...context, error });
      throw error;
    }
  }

  /** Runs one strategy and verifies its result, which must keep every rule and make progress. */
  private async attempt(
    strategy: CompactionStrategy,
    messages: Message[],
    tokensBefore: number,
    budget: CompactionBudget,
    context: Omit<CompactionInput, 'messages' | 'counter' | 'budget'>,
  ): Promise<{ output: CompactionOutput; tokens: number }> {
    context.abortSignal?.throwIfAborted();
    const output = await strategy.compact({ messages, counter: this.counter, budget, ...context });
    context.abortSignal?.throwIfAborted();
    const { counter } = this;
    const violations = verifyCompaction({
      before: messages,
      after: output.messages,
      counter,
      limit: budget.limit,
    });
    const tokens = counter.count(output.messages);
    const unreachable = (best: number, reason: string) =>
      new BudgetUnreachableError({ target: budget.target, best, limit: budget.limit, reason });
    if (violations.length > 0) {
      // A result over the limit is the strategy's way of saying how far it got.
      if (violations.every((violation) => violation.rule === 'within-limit')) {
        throw unreachable(tokens, `"${strategy.name}" returned a history over the limit`);
      }
      throw new RuleViolationError({ strategy: strategy.name, violations });
    }
    if (tokens >= tokensBefore) throw unreachable(tokensBefore, `"${strategy.name}" made no progress`);
    return { output, tokens };
  }

  /**
   * The budget of one compaction. After an overflow, the provider's own count decides: when it said how many
   * tokens the request had, the limit and target shrink by how far the count was off; when it did not (or
   * counted no more than we did), the true limit lies below what was sent, so both are capped under the
   * current count. Either way the retry fits what the provider actually counts.
   */
  private budgetFor(trigger: CompactionTrigger, tokens: number, overflow: ContextOverflow | undefined) {
    let { limit, target } = this.budget;
    if (trigger !== 'overflow') return { limit, target };
    if (overflow?.requestTokens !== undefined && overflow.requestTokens > tokens) {
      const scale = tokens / overflow.requestTokens;
      return { limit: Math.floor(limit * scale), target: Math.floor(target * scale) };
    }
    const cap = Math.floor(tokens * overflowShrink);
    if (cap < limit) {
      target = Math.floor(target * (cap / limit));
      limit = cap;
    }
    return { limit, target };
  }
}

/** Whether `messages` begin with every message of `prefix`, the same objects or equal ones. */
function startsWith(messages: readonly Message[], prefix: readonly Message[]): boolean {
  if (prefix.length > messages.length) return false;
  for (let index = 0; index < prefix.length; index++) {
    if (messages[index] !== prefix[index] && !deepEqual(messages[index], prefix[index])) return false;
  }
  return true;
}

/** Sessions kept by default; beyond them the least recently used idle one is forgotten. */
const defaultMaximumSessions = 1000;

/** Share of the refused request's size to stay under when the provider did not say how far over it was. */
const overflowShrink = 0.9;

/** Creates a {@link Compactor}. Throws `InvalidOptionsError` for an invalid budget. */
export function createCompactor(settings: CompactorSettings): Compactor {
  return new Compactor(settings);
}

/** How many messages `messages` adds after `output`, or Infinity when it does not extend it. */
function messagesAddedSince(output: readonly Message[], messages: readonly Message[]): number {
  if (messages.length < output.length) return Number.POSITIVE_INFINITY;
  for (let index = output.length - 1; index >= 0; index--) {
    if (output[index] !== messages[index]) return Number.POSITIVE_INFINITY;
  }
  return messages.length - output.length;
}

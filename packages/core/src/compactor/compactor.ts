import { type Budget, type BudgetOptions, resolveBudget } from '../budget/budget.js';
import { BudgetUnreachableError } from '../errors/budget-unreachable-error.js';
import { CompactionAbortedError } from '../errors/compaction-aborted-error.js';
import { CompactionError } from '../errors/compaction-error.js';
import { ContextOverflowError } from '../errors/context-overflow-error.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { RuleViolationError } from '../errors/rule-violation-error.js';
import { StrategyFailedError } from '../errors/strategy-failed-error.js';
import type { Message } from '../messages/message.js';
import type { CompactionStrategy, CompactionTrigger } from '../specs/compaction-strategy-v1.js';
import type { ContextOverflow, Provider } from '../specs/provider-v1.js';
import type { TokenEstimator } from '../specs/token-estimator-v1.js';
import type { CompactionStore } from '../store/compaction-store.js';
import {
  type AnchoredTokenCounter,
  createTokenCounter,
  type ReportedUsage,
} from '../tokens/token-counter.js';
import { type RepairOptions, repairHistory } from '../turns/repair-history.js';
import { deepEqual } from '../verify/deep-equal.js';
import { verifyCompaction } from '../verify/verify-compaction.js';
import type { CompactionEvent, CompactionFailure, CompactorEvents, SkipReason } from './compaction-event.js';
import type { CompactionHooks } from './compaction-hooks.js';
import { EventEmitter } from './event-emitter.js';

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

interface SessionState {
  rounds: number;
  /** Compactions queued or running; a session with any is never evicted. */
  underWay: number;
  /** The automatic compaction under way, which concurrent `prepare` calls on the same history share. */
  automatic?: { input: readonly Message[]; result: Promise<CompactionResult> };
  last?: { output: readonly Message[]; tokensAfter: number; trigger: CompactionTrigger };
  running: Promise<unknown>;
}

interface Attempt {
  messages: Message[];
  tokens: number;
  summary?: string;
  details?: CompactionEvent['details'];
}

/**
 * Decides when to compact, runs the strategy, verifies the result and records it. Never mutates the
 * histories it is given: the caller's original history is always intact, whatever happens.
 */
export class Compactor {
  readonly counter: AnchoredTokenCounter;
  readonly budget: Budget;
  private readonly settings: CompactorSettings;
  private readonly emitter = new EventEmitter<CompactorEvents>((error, name, payload) => {
    // A failing `error` listener has no event left to report it: it is thrown on its own, outside the emit.
    if (name === 'error') {
      queueMicrotask(() => {
        throw error;
      });
      return;
    }
    const { sessionId, trigger } = payload as CompactorEvents['start'];
    this.emitter.emit('error', { sessionId, trigger, error, failures: [], source: 'listener' });
  });
  /** Session state in order of use, least recent first: a Map keeps insertion order, and a use re-inserts. */
  private readonly sessions = new Map<string, SessionState>();
  private readonly maximumSessions: number;

  constructor(settings: CompactorSettings) {
    this.settings = settings;
    this.budget = resolveBudget(settings.budget);
    this.maximumSessions = settings.maximumSessions ?? defaultMaximumSessions;
    if (!Number.isInteger(this.maximumSessions) || this.maximumSessions < 1) {
      throw new InvalidOptionsError({
        subject: 'Compactor',
        issues: [{ path: 'maximumSessions', message: 'must be a positive integer' }],
      });
    }
    this.counter = settings.counter ?? createTokenCounter(settings.estimator);
  }

  /** Subscribes to `start`, `end`, `skipped` or `error`; returns the unsubscribe function. */
  on<Name extends keyof CompactorEvents>(
    name: Name,
    listener: (payload: CompactorEvents[Name]) => void,
  ): () => void {
    return this.emitter.on(name, listener);
  }

  /**
   * Forgets what the Compactor keeps for a session: its rounds (a later compaction of the session is round 1
   * again), its last result and the single-flight record. Call it when a conversation ends. A compaction of
   * the session already under way still completes.
   */
  forget(sessionId: string): void {
    this.sessions.delete(sessionId);
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
    const last = this.existingSession(options.sessionId ?? 'default')?.last;
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
    // Single flight, looked up before anything is awaited so that calls made together see each other.
    const underWay = this.existingSession(sessionId)?.automatic;
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
      if (check.reason !== 'under-trigger') {
        this.emitter.emit('skipped', {
          sessionId,
          trigger: 'auto',
          reason: check.reason as SkipReason,
          tokens: check.tokens,
        });
      }
      return {
        messages: [...messages],
        compacted: false,
        skipped: check.reason as SkipReason,
        failures: [],
      };
    }
    const failures: CompactionFailure[] = [];
    const session = this.session(sessionId);
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
    const overflow = this.parseOverflow(error);
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

  /** Runs a compaction after the session's earlier ones; the failures of its strategies go to `failures`. */
  private enqueue(
    messages: readonly Message[],
    options: CompactOptions,
    failures: CompactionFailure[],
  ): Promise<CompactionResult> {
    const sessionId = options.sessionId ?? 'default';
    const session = this.session(sessionId);
    session.underWay++;
    const run = session.running.then(() => this.run(messages, options, sessionId, session, failures));
    session.running = run.catch(() => undefined).finally(() => session.underWay--);
    return run;
  }

  private async run(
    input: readonly Message[],
    options: CompactOptions,
    sessionId: string,
    session: SessionState,
    failures: CompactionFailure[],
  ): Promise<CompactionResult> {
    const trigger = options.trigger ?? 'manual';
    const { messages, repairs } = repairHistory(input, this.settings.repair);
    const tokensBefore = this.counter.count(messages);
    const skip = (reason: SkipReason): CompactionResult => {
      this.emitter.emit('skipped', { sessionId, trigger, reason, tokens: tokensBefore });
      return { messages, compacted: false, skipped: reason, failures };
    };

    let instructions = options.instructions;
    const decision = await this.observed({ sessionId, trigger, failures, source: 'hook' }, () =>
      this.settings.hooks?.beforeCompaction?.({
        sessionId,
        trigger,
        messages,
        tokens: tokensBefore,
        ...(instructions === undefined ? {} : { instructions }),
      }),
    );
    if (decision?.cancel && trigger !== 'overflow') return skip('cancelled');
    if (decision?.instructions !== undefined) instructions = decision.instructions;

    const budget = this.budgetFor(trigger, tokensBefore, options.overflow);
    if (trigger !== 'overflow' && tokensBefore <= budget.target) return skip('under-target');

    this.emitter.emit('start', { sessionId, trigger, tokens: tokensBefore, messages: messages.length });
    const startedAt = new Date().toISOString();
    const started = performance.now();
    const round = session.rounds + 1;
    const unreachable: BudgetUnreachableError[] = [];
    const strategies = [this.settings.strategy, ...(this.settings.fallback ? [this.settings.fallback] : [])];
    let lastError: unknown;

    for (const [index, strategy] of strategies.entries()) {
      let attempt: Attempt;
      try {
        attempt = await this.attempt(strategy, messages, tokensBefore, budget, {
          trigger,
          round,
          sessionId,
          ...(instructions === undefined ? {} : { instructions }),
          ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
        });
      } catch (error) {
        if (isAbort(error, options.abortSignal)) {
          const aborted = CompactionAbortedError.isInstance(error)
            ? error
            : new CompactionAbortedError({ cause: error });
          this.emitter.emit('error', { sessionId, trigger, error: aborted, failures, source: 'compaction' });
          throw aborted;
        }
        lastError = error;
        failures.push(describeFailure(strategy.name, error));
        if (BudgetUnreachableError.isInstance(error)) unreachable.push(error);
        continue;
      }
      const event: CompactionEvent = {
        id: this.settings.generateId?.() ?? globalThis.crypto.randomUUID(),
        sessionId,
        round,
        trigger,
        strategy: strategy.name,
        usedFallback: index > 0,
        tokensBefore,
        tokensAfter: attempt.tokens,
        messagesBefore: messages.length,
        messagesAfter: attempt.messages.length,
        durationMs: performance.now() - started,
        startedAt,
        failures: [...failures],
        repairs,
        ...(attempt.summary === undefined ? {} : { summary: attempt.summary }),
        ...(instructions === undefined ? {} : { instructions }),
        ...(attempt.details === undefined ? {} : { details: attempt.details }),
      };
      const { store } = this.settings;
      if (store !== undefined) {
        const kept = new Set(attempt.messages);
        const removedMessages = messages.filter((message) => !kept.has(message));
        // Unrecorded, the removed messages could not be recalled: the compaction fails, the caller keeps the
        // history it has, and the session stays where it was.
        await this.observed({ sessionId, trigger, failures, source: 'store' }, () =>
          store.append({ event, removedMessages }),
        );
      }
      session.rounds = round;
      session.last = { output: attempt.messages, tokensAfter: attempt.tokens, trigger };
      try {
        await this.settings.hooks?.afterCompaction?.(event);
      } catch (error) {
        // The compaction is recorded and stands; the hook's failure is reported, not thrown.
        this.emitter.emit('error', { sessionId, trigger, error, failures, source: 'hook' });
      }
      this.emitter.emit('end', event);
      return { messages: attempt.messages, compacted: true, event, failures };
    }

    const error = finalError(lastError, unreachable, this.settings.strategy.name);
    this.emitter.emit('error', { sessionId, trigger, error, failures, source: 'compaction' });
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
      this.emitter.emit('error', { ...context, error });
      throw error;
    }
  }

  private async attempt(
    strategy: CompactionStrategy,
    messages: Message[],
    tokensBefore: number,
    budget: { limit: number; target: number },
    context: {
      trigger: CompactionTrigger;
      round: number;
      sessionId: string;
      instructions?: string;
      abortSignal?: AbortSignal;
    },
  ): Promise<Attempt> {
    context.abortSignal?.throwIfAborted();
    const output = await strategy.compact({ messages, counter: this.counter, budget, ...context });
    context.abortSignal?.throwIfAborted();
    const violations = verifyCompaction({
      before: messages,
      after: output.messages,
      counter: this.counter,
      limit: budget.limit,
    });
    const tokens = this.counter.count(output.messages);
    if (violations.length > 0) {
      if (violations.every((violation) => violation.rule === 'within-limit')) {
        // A result over the limit is the strategy's way of saying how far it got.
        throw new BudgetUnreachableError({
          target: budget.target,
          best: tokens,
          limit: budget.limit,
          reason: `"${strategy.name}" returned a history over the limit`,
        });
      }
      throw new RuleViolationError({ strategy: strategy.name, violations });
    }
    if (tokens >= tokensBefore) {
      throw new BudgetUnreachableError({
        target: budget.target,
        best: tokensBefore,
        limit: budget.limit,
        reason: `"${strategy.name}" made no progress`,
      });
    }
    return {
      messages: output.messages,
      tokens,
      ...(output.summary === undefined ? {} : { summary: output.summary }),
      ...(output.details === undefined ? {} : { details: output.details }),
    };
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

  private parseOverflow(error: unknown): ContextOverflow | undefined {
    if (ContextOverflowError.isInstance(error)) {
      return {
        message: error.message,
        ...(error.requestTokens === undefined ? {} : { requestTokens: error.requestTokens }),
        ...(error.maximumTokens === undefined ? {} : { maximumTokens: error.maximumTokens }),
      };
    }
    return this.settings.provider?.parseContextOverflow?.(error);
  }

  /** The state of a session, created when it has none; marks it the most recently used. */
  private session(sessionId: string): SessionState {
    const existing = this.existingSession(sessionId);
    if (existing !== undefined) return existing;
    const session: SessionState = { rounds: 0, underWay: 0, running: Promise.resolve() };
    this.sessions.set(sessionId, session);
    for (const [id, candidate] of this.sessions) {
      if (this.sessions.size <= this.maximumSessions) break;
      if (candidate.underWay === 0 && id !== sessionId) this.sessions.delete(id);
    }
    return session;
  }

  /** The state of a session, if it has any; marks it the most recently used. */
  private existingSession(sessionId: string): SessionState | undefined {
    const session = this.sessions.get(sessionId);
    if (session !== undefined) {
      this.sessions.delete(sessionId);
      this.sessions.set(sessionId, session);
    }
    return session;
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

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return CompactionAbortedError.isInstance(error) || (signal?.aborted === true && error === signal.reason);
}

function describeFailure(strategy: string, error: unknown): CompactionFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (RuleViolationError.isInstance(error)) {
    return { strategy, code: error.code, error: message, violations: error.violations };
  }
  if (BudgetUnreachableError.isInstance(error)) {
    return { strategy, code: error.code, error: message, target: error.target, best: error.best };
  }
  return {
    strategy,
    code: CompactionError.isInstance(error) ? error.code : 'core/strategy-failed',
    error: message,
  };
}

/**
 * The error a compaction ends with when every strategy failed: an unreachable budget first (it is what the
 * user can act on), from the strategy that came closest, passed on unchanged; otherwise the last error.
 */
function finalError(
  lastError: unknown,
  unreachable: readonly BudgetUnreachableError[],
  strategy: string,
): CompactionError {
  let closest: BudgetUnreachableError | undefined;
  for (const error of unreachable) if (closest === undefined || error.best < closest.best) closest = error;
  if (closest !== undefined) return closest;
  if (CompactionError.isInstance(lastError)) return lastError;
  return new StrategyFailedError({ strategy, cause: lastError });
}

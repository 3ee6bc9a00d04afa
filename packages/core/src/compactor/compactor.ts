import { type Budget, type BudgetOptions, resolveBudget } from '../budget/budget.js';
import { BudgetUnreachableError } from '../errors/budget-unreachable-error.js';
import { CompactionAbortedError } from '../errors/compaction-aborted-error.js';
import { CompactionError } from '../errors/compaction-error.js';
import { ContextOverflowError } from '../errors/context-overflow-error.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { RuleViolationError } from '../errors/rule-violation-error.js';
import { StrategyFailedError } from '../errors/strategy-failed-error.js';
import { present } from '../json.js';
import type { Message } from '../messages/message.js';
import type {
  ArchivedItem,
  CompactionInput,
  CompactionOutput,
  CompactionStrategy,
  CompactionTrigger,
} from '../specs/compaction-strategy-v1.js';
import type { CompactionTriggerPolicy } from '../specs/compaction-trigger-policy-v1.js';
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
import { pinPlanState } from '../working-state/pin-plan-state.js';
import { actionAtTrigger } from './background-at-trigger.js';
import { type BackgroundJob, BackgroundJobs, untilAborted } from './background-jobs.js';
import { type BackgroundSettings, resolveBackground } from './background-settings.js';
import type { CompactionEvent, CompactionFailure, CompactorEvents, SkipReason } from './compaction-event.js';
import type { CompactionHooks } from './compaction-hooks.js';
import type { CompactorObserver, CompactorStepRunner } from './compaction-step.js';
import { randomUUID } from './random-uuid.js';
import { composeObservers, runStep } from './run-step.js';

/** Settings of {@link createCompactor}. */
export interface CompactorSettings {
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
   * How {@link Compactor.prepare} counts: `estimate` (default), the counter alone; `provider`, one count by
   * the `provider`'s `countTokens` per `prepare` (none when recorded usage covers the whole history),
   * recorded on the counter as usage. A count that fails (an `error` event with the source `count`) or
   * that the provider only estimated leaves it to the counter.
   */
  countTokens?: 'estimate' | 'provider';
  /** Records every compaction and the messages it removed. */
  store?: CompactionStore;
  /**
   * Keeps what strategies remove or shorten within the model's reach: strategies name a handle in each
   * placeholder and the `store` keeps the text under it, for the `recall` tool (`createRecallTool` of
   * `@compaction/recall`). Needs a `store`. Default false.
   */
  archive?: boolean;
  /** Decides when automatic compaction runs under the limit, instead of the token trigger alone. */
  triggerPolicy?: CompactionTriggerPolicy;
  hooks?: CompactionHooks;
  /**
   * Watch each step of the work (prepare, recover, compaction, strategy attempts, pipeline stages, model calls)
   * to trace and measure it, such as `compactionTelemetry()` of `@compaction/opentelemetry`.
   */
  observers?: readonly CompactorObserver[];
  /** How damaged histories are repaired before compacting; see {@link RepairOptions}. */
  repair?: RepairOptions;
  /**
   * Guards against compaction loops: after an automatic compaction that could not get under the trigger,
   * automatic compaction waits for this many new messages (unless the limit itself is crossed). Default 4.
   */
  minimumNewMessages?: number;
  /** Makes event ids. Defaults to a random UUID (`crypto.randomUUID`, else `crypto.getRandomValues`). */
  generateId?: () => string;
  /** Sessions kept; beyond them the least recently used idle one is forgotten. Default 1000. */
  maximumSessions?: number;
  /**
   * Compaction off the critical path: from `prepareAt` on, `prepare` compacts in the background and returns
   * at once; at the trigger it uses that result when the history still begins with what was compacted. Off
   * when absent. See {@link BackgroundSettings}.
   */
  background?: BackgroundSettings;
  /**
   * The tools whose latest call holds the agent's plan or todo list: that call and its result are pinned before
   * the strategy runs, so compaction keeps them verbatim (`pinPlanState` of `@compaction/core/working-state`).
   * Default `defaultPlanTools` of that entry (`TodoWrite`, `update_plan`, `todowrite`, `write_todos`); `false`
   * pins nothing.
   */
  planTools?: readonly string[] | false;
}

/** What {@link Compactor.check} found. */
export interface CheckResult {
  tokens: number;
  limit: number;
  trigger: number | null;
  /** What compaction aims for: the budget's target, or a trigger policy's deeper one. */
  target: number;
  /** `tokens / limit`. */
  utilization: number;
  shouldCompact: boolean;
  /** `policy`: the trigger policy chose to compact; when it declines, the reason is `under-trigger`. */
  reason: 'over-limit' | 'over-trigger' | 'policy' | SkipReason;
}

/**
 * What one request carries besides its messages, and a limit lower than the budget's for it: per call, as
 * tools and the provider's stated limit differ between requests of one Compactor.
 */
export interface RequestSize {
  /** Tokens the request carries besides the messages (tool definitions, system fields): they count too. */
  overheadTokens?: number;
  /** A limit below the budget's (one the provider stated): the trigger and target shrink in proportion. */
  limitTokens?: number;
  /** The target of this request instead of the budget's (at most the limit), such as room for several turns. */
  targetTokens?: number;
}

/** Options of one compaction. */
export interface CompactOptions extends RequestSize {
  /** Default `manual`. */
  trigger?: CompactionTrigger;
  /** Extra instructions for the strategy, such as the text of a manual `/compact ...`. */
  instructions?: string;
  /** Compactions of one session run one at a time. Default `default`. */
  sessionId?: string;
  abortSignal?: AbortSignal;
  /** What the provider said when it refused the request (the `overflow` trigger). */
  overflow?: ContextOverflow;
  /**
   * With the `manual` trigger: compact even a history at or under the target, such as when the model or the
   * user asks. Over the target it aims for the target as usual; at or under it, for half of what the messages
   * count, and it keeps the strategy's best result when what the strategy may not remove (system, pinned,
   * task, newest turn) is above that. A history the strategies can remove nothing from is skipped with
   * `nothing-to-compact` instead of failing, while it fits the limit. Default false.
   */
  force?: boolean;
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
  /** Strategies that failed, in order: before the fallback's result, or before `prepare` kept the history. */
  failures: CompactionFailure[];
  /** With `archive`: what this compaction archived, by handle. */
  archived?: ArchivedItem[];
}

/** A compaction run but not yet recorded: recorded when used (at once in line, at the trigger in the background). */
interface CompactionDraft {
  event: CompactionEvent;
  output: CompactionOutput;
  tokens: number;
  removedMessages: Message[];
  archived: ArchivedItem[];
  failures: CompactionFailure[];
}

/** What the Compactor keeps for a session; one with compactions `underWay` is never evicted. */
interface SessionState {
  rounds: number;
  underWay: number;
  automatic?: { input: readonly Message[]; result: Promise<CompactionResult> };
  last?: { output: readonly Message[]; tokensAfter: number };
  running: Promise<unknown>;
}

/**
 * Decides when to compact, runs the strategy, verifies the result and records it. Never mutates the
 * histories it is given: the caller's original history is always intact, whatever happens.
 */
export class Compactor {
  readonly counter: AnchoredTokenCounter;
  readonly budget: Budget;
  private readonly listeners = new Map<keyof CompactorEvents, Set<(payload: never) => void>>();
  /** In order of use, least recent first: a Map keeps insertion order, and a use re-inserts. */
  private readonly sessions = new Map<string, SessionState>();
  /** Every observer as one runner; undefined without observers, so their steps cost nothing. */
  private readonly observe: CompactorStepRunner | undefined;
  /** The background compactions, with the `background` setting. */
  private readonly background: BackgroundJobs<CompactionDraft> | undefined;

  /** The store archived text goes to, when the Compactor archives (`archive`): where `recall` reads. */
  get archiveStore(): CompactionStore | undefined {
    return this.settings.archive === true ? this.settings.store : undefined;
  }

  constructor(private readonly settings: CompactorSettings) {
    this.budget = resolveBudget(settings.budget);
    const maximumSessions = settings.maximumSessions ?? 1000;
    const invalid = (path: string, message: string) =>
      new InvalidOptionsError({ subject: 'Compactor', issues: [{ path, message }] });
    if (!Number.isInteger(maximumSessions) || maximumSessions < 1) {
      throw invalid('maximumSessions', 'must be a positive integer');
    }
    if (settings.archive === true && settings.store === undefined) {
      throw invalid('archive', 'needs a store to keep the archived text in');
    }
    const countTokens = settings.countTokens ?? 'estimate';
    if (countTokens !== 'estimate' && (countTokens !== 'provider' || !settings.provider?.countTokens)) {
      throw invalid('countTokens', 'must be "estimate", or "provider" with a provider that counts');
    }
    this.counter = settings.counter ?? createTokenCounter(settings.estimator);
    this.observe = composeObservers(settings.observers);
    const { background } = settings;
    this.background =
      background === undefined
        ? undefined
        : new BackgroundJobs(resolveBackground(background, this.budget), (event) =>
            this.emit('background', event),
          );
  }

  /** Subscribes to `start`, `end`, `skipped`, `error` or `background`; returns the unsubscribe function. */
  on<Name extends keyof CompactorEvents>(name: Name, listener: (payload: CompactorEvents[Name]) => void) {
    const set = this.listeners.get(name) ?? new Set();
    this.listeners.set(name, set.add(listener as (payload: never) => void));
    return (): void => void set.delete(listener as (payload: never) => void);
  }

  /**
   * Forgets a session's rounds (its next compaction is round 1 again), last result and single-flight record.
   * Call it when a conversation ends; a compaction of the session already under way still completes, but
   * one running in the background (`background`) is stopped and dropped.
   */
  forget(sessionId: string): void {
    this.sessions.delete(sessionId);
    this.background?.cancel(sessionId);
  }

  /** Records the input tokens a provider reported for the messages sent, anchoring later counts. */
  recordUsage(usage: ReportedUsage): void {
    this.counter.recordUsage(usage);
  }

  /** Counts the history and says whether automatic compaction should run now, and why. */
  check(messages: readonly Message[], options: { sessionId?: string } & RequestSize = {}): CheckResult {
    const tokens = this.counter.count(messages) + (options.overheadTokens ?? 0);
    const budget = capped(this.budget, options.limitTokens);
    const { limit, trigger } = budget;
    let target = Math.min(options.targetTokens ?? budget.target, limit);
    const decide = (shouldCompact: boolean, reason: CheckResult['reason']): CheckResult => {
      return { tokens, limit, trigger, target, utilization: tokens / limit, shouldCompact, reason };
    };
    const policy = this.settings.triggerPolicy;
    if (trigger === null) return decide(false, 'disabled');
    if (policy === undefined && tokens <= trigger) return decide(false, 'under-trigger');
    if (messages.length < this.budget.minimumMessages) return decide(false, 'too-few-messages');
    if (tokens > limit) return decide(true, 'over-limit');
    const last = this.find(options.sessionId ?? 'default')?.last;
    if (last !== undefined && startsWith(messages, last.output, Object.is)) {
      const added = messages.length - last.output.length;
      const after = last.tokensAfter + (options.overheadTokens ?? 0);
      if (added === 0 || (after > trigger && added < (this.settings.minimumNewMessages ?? 4))) {
        return decide(false, added === 0 ? 'no-new-messages' : 'back-to-back');
      }
    }
    if (policy === undefined) return decide(true, 'over-trigger');
    const sessionId = options.sessionId ?? 'default';
    let answer: { compact: boolean; target?: number };
    try {
      answer = policy.decide({ sessionId, messages, tokens, limit, trigger, target });
    } catch (error) {
      // A policy is advice: when it fails, the token trigger decides, and the failure is reported.
      this.emit('error', { sessionId, trigger: 'auto', error, failures: [], source: 'hook' });
      return tokens > trigger ? decide(true, 'over-trigger') : decide(false, 'under-trigger');
    }
    if (!answer.compact) return decide(false, 'under-trigger');
    target = Math.min(answer.target ?? target, limit);
    return decide(true, 'policy');
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
    return runStep(this.observe, { kind: 'prepare', sessionId }, (observe) =>
      this.prepareObserved(messages, options, observe),
    );
  }

  private async prepareObserved(
    messages: readonly Message[],
    options: Omit<CompactOptions, 'trigger'>,
    observe: CompactorStepRunner | undefined,
  ): Promise<CompactionResult> {
    const sessionId = options.sessionId ?? 'default';
    await this.countWithProvider(messages, sessionId);
    // The trigger policy hears of every history returned to be sent, whichever way it was reached.
    const sent = (result: CompactionResult, tokens = result.event?.tokensAfter) => {
      // Without a policy that listens, nothing is counted or built: prepare runs before every model call.
      const listener = this.settings.triggerPolicy;
      if (listener?.sent === undefined) return result;
      const counted = tokens ?? this.counter.count(result.messages);
      const request = { sessionId, messages: result.messages, tokens: counted, compacted: result.compacted };
      try {
        listener.sent(request);
      } catch (error) {
        // An observer: its failure changes nothing of what is returned, and is reported.
        this.emit('error', { sessionId, trigger: 'auto', error, failures: [], source: 'hook' });
      }
      return result;
    };
    // Single flight, looked up after the last await so that calls made together see each other.
    const underWay = this.find(sessionId)?.automatic;
    if (underWay !== undefined && startsWith(messages, underWay.input)) {
      const shared = await underWay.result.catch(() => undefined);
      if (shared?.compacted) {
        const appended = messages.slice(underWay.input.length);
        if (appended.length === 0) return sent({ ...shared, messages: [...shared.messages] });
        // Messages came after the history the shared compaction started from: they follow its result.
        return this.prepareObserved([...shared.messages, ...appended], options, observe);
      }
    }
    const check = this.check(messages, { ...options, sessionId });
    // Decided now, before any await: of calls made together, one uses the job and the others share its result.
    const job = check.shouldCompact ? this.atTrigger(messages, options, check) : undefined;
    if (!check.shouldCompact || job === 'pending') {
      const skipped = job === 'pending' ? 'background-pending' : (check.reason as SkipReason);
      if (skipped !== 'under-trigger') {
        this.emit('skipped', { sessionId, trigger: 'auto', reason: skipped, tokens: check.tokens });
      }
      if (job === undefined) this.startInBackground(messages, options, check);
      return sent({ messages: [...messages], compacted: false, skipped, failures: [] }, check.tokens);
    }
    const failures: CompactionFailure[] = [];
    const session = this.session(sessionId);
    const result =
      job === undefined
        ? this.enqueue(messages, { ...options, trigger: 'auto' }, failures, check.target, observe)
        : this.useBackground(job, messages, options, failures, check, observe);
    const automatic = { input: messages, result };
    session.automatic = automatic;
    try {
      return sent(await automatic.result);
    } catch (error) {
      if (CompactionAbortedError.isInstance(error) || check.tokens > check.limit) throw error;
      return sent({ messages: [...messages], compacted: false, failures }, check.tokens);
    } finally {
      if (session.automatic === automatic) delete session.automatic;
    }
  }

  /**
   * The reactive helper, given the error a provider call threw: a context overflow (recognised by the
   * provider, or a {@link ContextOverflowError}) compacts with the `overflow` trigger, which must get under
   * the limit or throw; any other error is rethrown as is.
   */
  async recover(
    messages: readonly Message[],
    error: unknown,
    options: Omit<CompactOptions, 'trigger' | 'overflow'> = {},
  ): Promise<CompactionResult> {
    const sessionId = options.sessionId ?? 'default';
    return runStep(this.observe, { kind: 'recover', sessionId }, async (observe) => {
      const overflow = this.overflowOf(error);
      if (overflow === undefined) throw error;
      return this.enqueue(messages, { ...options, trigger: 'overflow', overflow }, [], undefined, observe);
    });
  }

  /** A provider's context-overflow error as what it said; `undefined` for any other error. */
  private overflowOf(error: unknown): ContextOverflow | undefined {
    return ContextOverflowError.isInstance(error)
      ? {
          message: error.message,
          ...present({ requestTokens: error.requestTokens, maximumTokens: error.maximumTokens }),
        }
      : this.settings.provider?.parseContextOverflow?.(error);
  }

  /**
   * Compacts now; compactions of one session run one at a time. When every strategy fails it throws the
   * `BudgetUnreachableError` that came closest to the target, unchanged, if any; else the last strategy's
   * Compaction error (or a `StrategyFailedError` wrapping its error).
   */
  async compact(messages: readonly Message[], options: CompactOptions = {}): Promise<CompactionResult> {
    return this.enqueue(messages, options, [], undefined, this.observe);
  }

  /** Listeners are observers: one that throws changes nothing; its failure is a `listener` `error` event. */
  private emit<Name extends keyof CompactorEvents>(name: Name, payload: CompactorEvents[Name]): void {
    for (const listener of this.listeners.get(name) ?? []) {
      try {
        (listener as (payload: CompactorEvents[Name]) => void)(payload);
      } catch (error) {
        // A failing `error` listener has no event left to report it: it is thrown on its own, outside emit.
        if (name === 'error') {
          queueMicrotask(() => {
            throw error;
          });
        } else {
          // A `background` event has no trigger: its compactions are automatic ones.
          const { sessionId, trigger = 'auto' } = payload as {
            sessionId: string;
            trigger?: CompactionTrigger;
          };
          this.emit('error', { sessionId, trigger, error, failures: [], source: 'listener' });
        }
      }
    }
  }

  /** Runs a side effect whose failure is emitted as an `error` event (unless `quiet`), then thrown. */
  private async observed<Result>(
    context: Omit<CompactorEvents['error'], 'error'>,
    effect: () => Result,
    quiet = () => false,
  ) {
    try {
      return await effect();
    } catch (error) {
      if (!quiet()) this.emit('error', { ...context, error });
      throw error;
    }
  }

  /** With `countTokens: 'provider'`, anchors the counter on the provider's exact count of `messages`. */
  private async countWithProvider(messages: readonly Message[], sessionId: string): Promise<void> {
    const { provider } = this.settings;
    if (this.settings.countTokens !== 'provider' || provider === undefined) return;
    // Usage recorded for this very history already counts it exactly: a call would only repeat it.
    if (this.counter.anchoredLength(messages) === messages.length) return;
    // A failed count is reported, not thrown: the counter's estimate decides instead.
    await this.observed({ sessionId, trigger: 'auto', failures: [], source: 'count' }, async () => {
      const count = await provider.countTokens?.({ messages: [...messages] });
      if (count?.accuracy === 'exact') this.counter.recordUsage({ messages, inputTokens: count.tokens });
    }).catch(() => undefined);
  }

  /** A session's state, if it has any, marked the most recently used. */
  private find(sessionId: string): SessionState | undefined {
    const state = this.sessions.get(sessionId);
    if (state !== undefined && this.sessions.delete(sessionId)) this.sessions.set(sessionId, state);
    return state;
  }

  /** A session's state, created when it has none (evicting the least recently used idle one if over). */
  private session(sessionId: string): SessionState {
    const found = this.find(sessionId);
    if (found !== undefined) return found;
    const state: SessionState = { rounds: 0, underWay: 0, running: Promise.resolve() };
    this.sessions.set(sessionId, state);
    for (const [id, candidate] of this.sessions) {
      if (this.sessions.size <= (this.settings.maximumSessions ?? 1000)) break;
      if (candidate.underWay === 0 && id !== sessionId) this.forget(id);
    }
    return state;
  }

  /** Runs a compaction after the session's earlier ones; the failures of its strategies go to `failures`. */
  private enqueue(
    input: readonly Message[],
    options: CompactOptions,
    failures: CompactionFailure[],
    target: number | undefined,
    observing: CompactorStepRunner | undefined,
  ) {
    const sessionId = options.sessionId ?? 'default';
    const session = this.session(sessionId);
    const trigger = options.trigger ?? 'manual';
    const step = { kind: 'compaction', sessionId, trigger, strategy: this.settings.strategy.name } as const;
    const compaction = async (observe: CompactorStepRunner | undefined): Promise<CompactionResult> => {
      const drafted = await this.draft(session, input, options, failures, target, observe);
      return 'skipped' in drafted ? drafted.skipped : this.commit(session, drafted);
    };
    return this.queue(session, () => runStep(observing, step, compaction));
  }

  /** Runs `task` after the session's earlier compactions; the session counts as busy until it ends. */
  private queue<Result>(session: SessionState, task: () => Promise<Result>): Promise<Result> {
    session.underWay++;
    const run = session.running.then(task);
    session.running = run.catch(() => undefined).finally(() => session.underWay--);
    return run;
  }

  /**
   * Runs the compaction without recording it: the hook, the budget, the strategy (and fallback), the event.
   * `announce: false` (in the background) leaves the `start` event to when the draft is used.
   */
  private async draft(
    session: SessionState,
    input: readonly Message[],
    options: CompactOptions,
    failures: CompactionFailure[],
    target: number | undefined,
    observe: CompactorStepRunner | undefined,
    announce = true,
  ): Promise<CompactionDraft | { skipped: CompactionResult }> {
    const sessionId = options.sessionId ?? 'default';
    const trigger = options.trigger ?? 'manual';
    const { messages: repaired, repairs } = repairHistory(input, this.settings.repair);
    // Counted before the plan pin: pinned copies are new objects, which a recorded usage's anchor would miss.
    const tokensBefore = this.counter.count(repaired);
    const { planTools } = this.settings;
    // The agent's latest plan, pinned so that every strategy keeps it; a skip returns the history unpinned.
    const messages = planTools === false ? repaired : pinPlanState(repaired, { tools: planTools });
    const observed = <Result>(source: CompactorEvents['error']['source'], effect: () => Result) =>
      this.observed({ sessionId, trigger, failures, source }, effect);
    const skip = (reason: SkipReason) => {
      this.emit('skipped', { sessionId, trigger, reason, tokens: tokensBefore });
      return { skipped: { messages: repaired, compacted: false, skipped: reason, failures } };
    };
    const context = { sessionId, trigger, messages, tokens: tokensBefore };
    const decision = await observed('hook', () =>
      this.settings.hooks?.beforeCompaction?.({
        ...context,
        ...present({ instructions: options.instructions }),
      }),
    );
    if (decision?.cancel && trigger !== 'overflow') return skip('cancelled');
    const instructions = decision?.instructions ?? options.instructions;
    const budget = this.budgetFor(trigger, tokensBefore, options, target);
    if (trigger !== 'overflow' && tokensBefore <= budget.target) {
      return skip(forced(trigger, options) ? 'nothing-to-compact' : 'under-target');
    }
    if (announce) this.emit('start', { sessionId, trigger, tokens: tokensBefore, messages: messages.length });
    const startedAt = new Date().toISOString();
    const started = performance.now();
    const round = session.rounds + 1;
    const archive = this.settings.archive === true ? { archive: true } : {};
    const extra = { ...present({ instructions, abortSignal: options.abortSignal }), ...archive };
    const request = { messages, counter: this.counter, budget, trigger, round, sessionId, ...extra };
    // Forced, a history within the limit that the strategies can remove nothing from is skipped, not failed.
    const run = () =>
      this.attempt(request, tokensBefore, failures, observe).catch((error: unknown) => {
        const removable = !BudgetUnreachableError.isInstance(error) || tokensBefore > budget.limit;
        if (forced(trigger, options) && !removable) return undefined;
        throw error;
      });
    // A background job stopped because it was dropped has no error to report: its `discarded` event says why.
    const dropped = () => !announce && options.abortSignal?.aborted === true;
    const failureContext = { sessionId, trigger, failures, source: 'compaction' } as const;
    const attempted = await this.observed(failureContext, run, dropped);
    if (attempted === undefined) return skip('nothing-to-compact');
    const { strategy, output, tokens } = attempted;
    const event: CompactionEvent = {
      id: this.settings.generateId?.() ?? randomUUID(),
      sessionId,
      round,
      trigger,
      strategy: strategy.name,
      // The fallback runs only after the strategy failed.
      usedFallback: failures.length > 0,
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
    const kept = new Set(output.messages);
    const removedMessages = messages.filter((message) => !kept.has(message));
    const archived = this.settings.archive === true ? uniqueByHandle(output.archived ?? []) : [];
    return { event, output, tokens, removedMessages, archived, failures };
  }

  /** Records a drafted compaction: the store, the session's round and last result, the hook, `end`. */
  private async commit(session: SessionState, draft: CompactionDraft): Promise<CompactionResult> {
    const { event, output, tokens, removedMessages, archived, failures } = draft;
    const { hooks, store } = this.settings;
    const { sessionId, trigger } = event;
    const observed = <Result>(source: CompactorEvents['error']['source'], effect: () => Result) =>
      this.observed({ sessionId, trigger, failures, source }, effect);
    const record = { event, removedMessages, ...(archived.length > 0 ? { archived } : {}) };
    // Unrecorded, the removed messages could not be recalled: the compaction fails and the session stays.
    if (store !== undefined) await observed('store', () => store.append(record));
    session.rounds = event.round;
    session.last = { output: output.messages, tokensAfter: tokens };
    // The compaction is recorded and stands: a failing `afterCompaction` is reported, not thrown.
    await observed('hook', () => hooks?.afterCompaction?.(event)).catch(() => undefined);
    this.emit('end', event);
    const result = { messages: output.messages, compacted: true, event, failures };
    return archived.length > 0 ? { ...result, archived } : result;
  }

  /**
   * Under the trigger, from `prepareAt` on: starts compacting `messages` in the background, unless the
   * session has a job for them already. A job the history no longer begins with is dropped here too.
   */
  private startInBackground(messages: readonly Message[], options: CompactOptions, check: CheckResult): void {
    const background = this.background;
    if (background === undefined) return;
    const sessionId = options.sessionId ?? 'default';
    // A request with a lower limit lowers `prepareAt` in the same proportion as the trigger.
    const prepareAt = background.settings.prepareAt * (check.limit / this.budget.limit);
    // Right after a compaction, as after one that fell short: wait for new messages (no compaction loop).
    const enoughNew = () => {
      const last = this.find(sessionId)?.last;
      if (last === undefined || !startsWith(messages, last.output, Object.is)) return true;
      return messages.length - last.output.length >= (this.settings.minimumNewMessages ?? 4);
    };
    const due =
      check.reason === 'under-trigger' &&
      check.tokens >= prepareAt &&
      messages.length >= this.budget.minimumMessages &&
      enoughNew();
    if (!due) {
      background.matching(sessionId, messages);
      return;
    }
    this.launch(messages, options, check);
  }

  /**
   * Over the trigger, with `background`: the session's job to use, taken out so that no other call uses it
   * too; `'pending'` when the history is sent as it is while a job runs (started now if none ran); or
   * `undefined` to compact in line. See {@link actionAtTrigger}.
   */
  private atTrigger(
    messages: readonly Message[],
    options: CompactOptions,
    check: CheckResult,
  ): BackgroundJob<CompactionDraft> | 'pending' | undefined {
    const background = this.background;
    if (background === undefined) return undefined;
    const sessionId = options.sessionId ?? 'default';
    const job = background.matching(sessionId, messages);
    const action = actionAtTrigger({
      tokens: check.tokens,
      limit: check.limit,
      target: check.target,
      overheadTokens: options.overheadTokens ?? 0,
      // A trigger policy that compacts under the trigger wants it now (its cache reckoning): it is not put off.
      waitAtTrigger: background.settings.waitAtTrigger || check.reason === 'policy',
      ...(job === undefined ? {} : { job: { ended: job.ended !== undefined, target: job.target } }),
      appendedTokens: job === undefined ? 0 : this.counter.count(messages.slice(job.input.length)),
    });
    if (action === 'use') return background.take(sessionId, messages);
    if (action === 'pending') return 'pending';
    if (action === 'start') return this.launch(messages, options, check) ? 'pending' : undefined;
    if (action === 'supersede' && job !== undefined) background.discard(job, 'superseded');
    return undefined;
  }

  /** Starts a background job on `messages` unless one runs for them; whether one does now. */
  private launch(
    messages: readonly Message[],
    options: CompactOptions,
    check: Pick<CheckResult, 'tokens' | 'target'>,
  ): boolean {
    const sessionId = options.sessionId ?? 'default';
    const session = this.session(sessionId);
    // The job outlives this call: the caller's abort signal is not its own; it has its own, for when it is dropped.
    const { abortSignal: _callers, ...request } = options;
    const context = { rounds: session.rounds, tokens: check.tokens, target: check.target };
    return (
      this.background?.start(sessionId, messages, context, async (signal) => {
        const compaction = { ...request, sessionId, trigger: 'auto' as const, abortSignal: signal };
        const drafted = await this.draft(
          session,
          messages,
          compaction,
          [],
          check.target,
          this.observe,
          false,
        );
        return 'skipped' in drafted ? undefined : drafted;
      }) ?? false
    );
  }

  /**
   * At the trigger, with a background job whose input `messages` begin with: waits for it if it is still
   * running (it started earlier, so it ends sooner than a compaction started now), records it, and adds the
   * messages that came since. That history is compacted again in line only when those messages alone cross
   * the target (or it is over the limit); over the trigger, the next job starts at once. A job that failed,
   * or that another recorded compaction superseded, leaves the compaction to be done in line.
   */
  private async useBackground(
    job: BackgroundJob<CompactionDraft>,
    messages: readonly Message[],
    options: Omit<CompactOptions, 'trigger'>,
    failures: CompactionFailure[],
    check: CheckResult,
    observe: CompactorStepRunner | undefined,
  ): Promise<CompactionResult> {
    const sessionId = options.sessionId ?? 'default';
    const inLine = (history: readonly Message[]) =>
      this.enqueue(history, { ...options, trigger: 'auto' }, failures, check.target, observe);
    const waiting = performance.now();
    // The caller's signal stops the wait, not the job: it stays for the next call.
    const outcome = await untilAborted(job.outcome, options.abortSignal).catch((error: unknown) => {
      this.background?.restore(job);
      throw error;
    });
    const waitedMs = performance.now() - waiting;
    // A failed or skipped job was reported when it ended.
    if (outcome.kind !== 'ready') return inLine(messages);
    const { draft } = outcome;
    const session = this.session(sessionId);
    const committed = await this.queue(session, async () => {
      // Checked in the queue: a compaction recorded before this one would make its round and input stale.
      if (session.rounds !== job.rounds) return undefined;
      const { tokensBefore: tokens, messagesBefore } = draft.event;
      this.emit('start', { sessionId, trigger: 'auto', tokens, messages: messagesBefore });
      return this.commit(session, draft);
    });
    if (committed === undefined) {
      this.background?.report(job, 'superseded');
      return inLine(messages);
    }
    // Kept messages as the caller's own objects: equal to the job's input, maybe not the same ones.
    const current = new Map(job.input.map((message, index) => [message, messages[index]!]));
    const appended = messages.slice(job.input.length);
    const history = [...committed.messages.map((message) => current.get(message) ?? message), ...appended];
    const historyTokens = this.counter.count(history);
    const overhead = options.overheadTokens ?? 0;
    // Compacting the result again would summarize a summary for the few turns on top of it: only when those
    // turns alone cross the target (the result could never get there) or the whole would not fit.
    const compactedAgain =
      this.counter.count(appended) + overhead > check.target || historyTokens + overhead > check.limit;
    const savedMs = compactedAgain ? 0 : Math.max(0, draft.event.durationMs - waitedMs);
    const used = { sessionId, savedMs, waitedMs, appended: appended.length, compactedAgain } as const;
    this.emit('background', { status: 'used', ...used });
    session.last = { output: history, tokensAfter: historyTokens };
    if (!compactedAgain) {
      const tokens = historyTokens + overhead;
      if (tokens > (check.trigger ?? check.limit))
        this.launch(history, options, { tokens, target: check.target });
      return { ...committed, messages: history };
    }
    // The background compaction is recorded: if compacting again fails, its result stands while it fits.
    return inLine(history).catch((error: unknown) => {
      if (CompactionAbortedError.isInstance(error) || historyTokens > check.limit) throw error;
      return { ...committed, messages: history };
    });
  }

  /** Runs the strategy, then the fallback if it fails; a result must keep every rule and make progress. */
  private async attempt(
    input: CompactionInput,
    tokensBefore: number,
    failures: CompactionFailure[],
    observe: CompactorStepRunner | undefined,
  ) {
    const { strategy, fallback } = this.settings;
    const { messages, budget, round, abortSignal: signal } = input;
    const errors: unknown[] = [];
    for (const current of fallback ? [strategy, fallback] : [strategy]) {
      const step = { kind: 'strategy', name: current.name, fallback: current !== strategy, round } as const;
      const { target, limit } = budget;
      try {
        return await runStep(observe, { ...step, messages, tokens: tokensBefore, target, limit }, (inner) =>
          this.attemptOne(current, inner === undefined ? input : { ...input, observe: inner }, tokensBefore),
        );
      } catch (error) {
        if (CompactionAbortedError.isInstance(error)) throw error;
        if (signal?.aborted && error === signal.reason) throw new CompactionAbortedError({ cause: error });
        errors.push(error);
        failures.push(describeFailure(current.name, error));
      }
    }
    // All failed: the closest unreachable budget (what the user can act on) goes first, unchanged.
    const [closest] = errors
      .filter((e) => BudgetUnreachableError.isInstance(e))
      .sort((a, b) => a.best - b.best);
    const last = errors[errors.length - 1];
    if (closest !== undefined) throw closest;
    if (CompactionError.isInstance(last)) throw last;
    throw new StrategyFailedError({ strategy: strategy.name, cause: last });
  }

  /** One strategy's attempt: its result, checked; a result that breaks a rule or makes no progress throws. */
  private async attemptOne(current: CompactionStrategy, input: CompactionInput, tokensBefore: number) {
    const { messages, counter, budget, abortSignal: signal } = input;
    signal?.throwIfAborted();
    const output = await current.compact({ ...input });
    signal?.throwIfAborted();
    const { limit } = budget;
    const archived = input.archive === true ? output.archived : undefined;
    const violations = verifyCompaction({
      before: messages,
      after: output.messages,
      counter,
      limit,
      archived,
    });
    const tokens = counter.count(output.messages);
    const unreachable = (best: number, reason: string) =>
      new BudgetUnreachableError({ ...budget, best, reason: `"${current.name}" ${reason}` });
    // A result over the limit is the strategy's way of saying how far it got.
    if (violations.length > 0 && violations.every((violation) => violation.rule === 'within-limit')) {
      throw unreachable(tokens, 'returned a history over the limit');
    }
    if (violations.length > 0) throw new RuleViolationError({ strategy: current.name, violations });
    if (tokens >= tokensBefore) throw unreachable(tokensBefore, 'made no progress');
    return { strategy: current, output, tokens };
  }

  /**
   * The budget of one compaction, for the messages once the request's overhead is set aside. After an
   * overflow, the provider's count decides: when it said how many tokens the request had, the limit and
   * target shrink by how far our count was off; when it did not (or counted no more than we did), the true
   * limit lies below what was sent: both are capped under our count.
   */
  private budgetFor(
    trigger: CompactionTrigger,
    messageTokens: number,
    options: CompactOptions,
    target?: number,
  ) {
    const overhead = options.overheadTokens ?? 0;
    const tokens = messageTokens + overhead;
    let budget = capped(this.budget, options.limitTokens);
    const requested = options.overflow?.requestTokens;
    let shrink = 1;
    if (trigger === 'overflow') {
      const exceeded = requested !== undefined && requested > tokens;
      const shrunk = capped(
        budget,
        exceeded ? Math.floor(budget.limit * (tokens / requested)) : tokens * overflowShrink,
      );
      shrink = shrunk.limit / budget.limit;
      budget = shrunk;
    }
    // A target given for this request shrinks with the limit after an overflow, as the budget's does.
    const given = options.targetTokens === undefined ? undefined : options.targetTokens * shrink;
    const chosen = Math.floor(Math.min(given ?? target ?? budget.target, budget.limit));
    // Forced at or under the target: half of the messages, so that every strategy has work and room (a summary
    // sized by the target, turns dropped, results shortened) and the result is still the strategy's best.
    const aimed =
      forced(trigger, options) && tokens <= chosen
        ? Math.floor(messageTokens * forcedShare) + overhead
        : chosen;
    return { limit: budget.limit - overhead, target: aimed - overhead };
  }
}

/** A budget under a lower limit: its trigger and target shrink in the same proportion. */
function capped<Shape extends { limit: number; target: number; trigger: number | null }>(
  budget: Shape,
  limit: number | undefined,
): Shape {
  if (limit === undefined || limit >= budget.limit) return budget;
  const scale = Math.max(0, Math.floor(limit)) / budget.limit;
  const trigger = budget.trigger === null ? null : Math.floor(budget.trigger * scale);
  return {
    ...budget,
    limit: Math.floor(budget.limit * scale),
    trigger,
    target: Math.floor(budget.target * scale),
  };
}

/** Share of the refused request's size to stay under when the provider did not say how far over it was. */
const overflowShrink = 0.9;

/** Share of its messages' tokens that a forced compaction of a history at or under the target aims for. */
const forcedShare = 0.5;

/** Whether a compaction runs even at or under the target: a manual one asked with `force`. */
function forced(trigger: CompactionTrigger, options: CompactOptions): boolean {
  return trigger === 'manual' && options.force === true;
}

/** Creates a {@link Compactor}. Throws `InvalidOptionsError` for an invalid budget. */
export function createCompactor(settings: CompactorSettings): Compactor {
  return new Compactor(settings);
}

/** Whether `messages` begin with every message of `prefix`: by default the same objects or equal ones. */
function startsWith(messages: readonly Message[], prefix: readonly Message[], same = deepEqual): boolean {
  return prefix.length <= messages.length && prefix.every((message, index) => same(messages[index], message));
}

/** The items once each: one text archived by two stages of a pipeline carries one handle. */
function uniqueByHandle(items: readonly ArchivedItem[]): ArchivedItem[] {
  const byHandle = new Map<string, ArchivedItem>();
  for (const item of items) if (!byHandle.has(item.handle)) byHandle.set(item.handle, item);
  return [...byHandle.values()];
}

/** A strategy's failure as plain JSON, for events and the store. */
function describeFailure(strategy: string, error: unknown): CompactionFailure {
  const message = error instanceof Error ? error.message : String(error);
  const code = CompactionError.isInstance(error) ? error.code : 'core/strategy-failed';
  const failure: CompactionFailure = { strategy, code, error: message };
  if (RuleViolationError.isInstance(error)) return { ...failure, violations: error.violations };
  if (BudgetUnreachableError.isInstance(error)) return { ...failure, target: error.target, best: error.best };
  return failure;
}

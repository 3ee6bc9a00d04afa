import { CompactionAbortedError } from '../errors/compaction-aborted-error.js';
import type { Message } from '../messages/message.js';
import { deepEqual } from '../verify/deep-equal.js';
import type { ResolvedBackground } from './background-settings.js';
import type { BackgroundDiscardReason, BackgroundEvent } from './compaction-event.js';

/** How a background compaction ended: a result to record when used, nothing to do, or an error. */
export type BackgroundOutcome<Draft> =
  | { kind: 'ready'; draft: Draft }
  | { kind: 'skipped' }
  | { kind: 'failed'; error: unknown };

/** One compaction running (or done) ahead of the trigger for one session. */
export interface BackgroundJob<Draft> {
  sessionId: string;
  /** The history it compacts: it is used only for a history that begins with these messages. */
  input: readonly Message[];
  /** The session's rounds when it started: a compaction recorded since then makes its round wrong. */
  rounds: number;
  /** What it compacts down to, in tokens of the request: a ready result is expected at or under it. */
  target: number;
  outcome: Promise<BackgroundOutcome<Draft>>;
  /** The outcome once it ended: `prepare` decides without waiting whether the job is still running. */
  ended?: BackgroundOutcome<Draft>;
  controller: AbortController;
  /** Set once its `discarded` event is emitted: one per job. */
  reported?: true;
}

/**
 * The background compactions of a Compactor: one per session at most, `maximumConcurrent` running at once.
 * A job stays after it failed (reported when it failed), so that the next `prepare` calls of the same history
 * do not start it again at every step; `prepare` at the trigger then compacts in line.
 */
export class BackgroundJobs<Draft> {
  private readonly jobs = new Map<string, BackgroundJob<Draft>>();
  private running = 0;

  constructor(
    readonly settings: ResolvedBackground,
    private readonly emit: (event: BackgroundEvent) => void,
  ) {}

  /** The session's job if `messages` begin with what it compacts; a job they do not describe is dropped. */
  matching(sessionId: string, messages: readonly Message[]): BackgroundJob<Draft> | undefined {
    const job = this.jobs.get(sessionId);
    if (job === undefined || beginsWith(messages, job.input)) return job;
    this.discard(job, 'history-changed');
    return undefined;
  }

  /** Takes the session's job out for `prepare` at the trigger, so that no other call uses it too. */
  take(sessionId: string, messages: readonly Message[]): BackgroundJob<Draft> | undefined {
    const job = this.matching(sessionId, messages);
    if (job !== undefined) this.jobs.delete(sessionId);
    return job;
  }

  /**
   * Starts compacting `messages` unless the session has a job for them already or the global cap is reached;
   * says whether the session has a job for them now. `run` resolves to the draft to record later, or
   * `undefined` when there was nothing to compact.
   */
  start(
    sessionId: string,
    messages: readonly Message[],
    context: { rounds: number; tokens: number; target: number },
    run: (signal: AbortSignal) => Promise<Draft | undefined>,
  ): boolean {
    if (this.matching(sessionId, messages) !== undefined) return true;
    if (this.running >= this.settings.maximumConcurrent) return false;
    const controller = new AbortController();
    this.running++;
    this.emit({ status: 'started', sessionId, tokens: context.tokens, messages: messages.length });
    // Started on a later turn of the event loop: its first steps (repair, count) are not `prepare`'s to wait for.
    const outcome = new Promise((resolve) => setTimeout(resolve, 0))
      .then(() => {
        controller.signal.throwIfAborted();
        return run(controller.signal);
      })
      .then(
        (draft): BackgroundOutcome<Draft> =>
          draft === undefined ? { kind: 'skipped' } : { kind: 'ready', draft },
        (error: unknown): BackgroundOutcome<Draft> => ({ kind: 'failed', error }),
      )
      .then((ended) => {
        this.running--;
        job.ended = ended;
        if (ended.kind === 'failed') this.report(job, 'failed', ended.error);
        if (ended.kind === 'skipped') this.report(job, 'skipped');
        return ended;
      });
    const job: BackgroundJob<Draft> = {
      sessionId,
      input: messages,
      rounds: context.rounds,
      target: context.target,
      outcome,
      controller,
    };
    this.jobs.set(sessionId, job);
    return true;
  }

  /** Puts a taken job back, when its session has no other: the call that took it was aborted. */
  restore(job: BackgroundJob<Draft>): void {
    if (!this.jobs.has(job.sessionId) && !job.reported) this.jobs.set(job.sessionId, job);
  }

  /** Drops the session's job, if any, stopping it: the session was closed. */
  cancel(sessionId: string): void {
    const job = this.jobs.get(sessionId);
    if (job !== undefined) this.discard(job, 'session-closed');
  }

  /** Emits the job's `discarded` event, once. */
  report(job: BackgroundJob<Draft>, reason: BackgroundDiscardReason, error?: unknown): void {
    if (job.reported) return;
    job.reported = true;
    const event: BackgroundEvent = { status: 'discarded', sessionId: job.sessionId, reason };
    this.emit(error === undefined ? event : { ...event, error });
  }

  /** Drops a job, stopping it if it still runs, with its `discarded` event. */
  discard(job: BackgroundJob<Draft>, reason: BackgroundDiscardReason): void {
    if (this.jobs.get(job.sessionId) === job) this.jobs.delete(job.sessionId);
    this.report(job, reason);
    job.controller.abort(new Error(`background compaction dropped: ${reason}`));
  }
}

/**
 * Whether `messages` begin with `prefix`, message by message: the same objects, or equal ones. Equality, not
 * identity alone, since callers often rebuild their messages each turn (a proxy parses every request anew);
 * equal messages are the same history, and any edit, insertion or removal in the prefix fails it.
 */
function beginsWith(messages: readonly Message[], prefix: readonly Message[]): boolean {
  return (
    prefix.length <= messages.length && prefix.every((message, index) => deepEqual(messages[index], message))
  );
}

/** `promise`, or a `CompactionAbortedError` as soon as `signal` aborts (already aborted: at once). */
export function untilAborted<Result>(
  promise: Promise<Result>,
  signal: AbortSignal | undefined,
): Promise<Result> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(new CompactionAbortedError({ cause: signal.reason }));
  return new Promise<Result>((resolve, reject) => {
    const abort = () => reject(new CompactionAbortedError({ cause: signal.reason }));
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

import { Worker } from 'node:worker_threads';
import { HttpError } from '../errors/http-error.js';

/** What the main thread sends a worker of a {@link WorkerPool}. */
export type WorkerRequest<Task> =
  | { type: 'task'; id: number; task: Task }
  /** Aborts the work in flight (a server stop past its timeout). */
  | { type: 'abort'; reason: string };

/** What a worker of a {@link WorkerPool} sends back: once set up, whether it can work; then once per task. */
export type WorkerReply<Answer> =
  | { type: 'ready' }
  /** The worker could not set itself up, so it can do no task: the caller does them another way. */
  | { type: 'unavailable'; reason: string }
  | { type: 'answer'; id: number; answer: Answer };

/** Settings of {@link WorkerPool}. */
export interface WorkerPoolSettings {
  /** The worker's module. */
  script: URL;
  /** Threads at most; started on first use, one more each time every running one is busy. */
  size: number;
  /** Given to every worker as its `workerData` (plain data: it is copied). */
  workerData?: unknown;
}

/** The 500 of a task whose worker died before it answered. */
export function workerFailed(detail: string): HttpError {
  return new HttpError({
    status: 500,
    errorCode: 'compaction-worker-failed',
    message: `the compaction thread stopped before it answered (${detail}); retry the request`,
  });
}

/** Thrown by {@link WorkerPool.run} when the worker cannot do the task (see `unavailable`). */
export class WorkerUnavailableError extends Error {
  override readonly name = 'WorkerUnavailableError';
}

interface PendingTask<Answer> {
  resolve(answer: Answer): void;
  reject(error: Error): void;
}

interface PoolWorker<Answer> {
  worker: Worker;
  /** Resolves once the worker is set up; rejects when it cannot be, or dies first. */
  ready: Promise<void>;
  pending: Map<number, PendingTask<Answer>>;
  /** Tasks given to it that wait for it to be ready, counted with `pending` to pick the least busy. */
  waiting: number;
}

/**
 * A bounded set of worker threads running one kind of task, so CPU-heavy work leaves the event loop free. A
 * task goes to the least busy thread (a thread takes several at once: a task waiting on a model call does not
 * hold it). A thread that dies (an uncaught error, an exit, memory) is dropped, every task it held is rejected
 * with {@link workerFailed}, and the next task starts a new one. Threads are `unref`ed: an idle pool never keeps
 * the process alive, and {@link close} ends them.
 */
export class WorkerPool<Task, Answer> {
  private readonly workers: PoolWorker<Answer>[] = [];
  private nextId = 0;
  private closed = false;

  constructor(private readonly settings: WorkerPoolSettings) {
    if (!Number.isInteger(settings.size) || settings.size < 1) {
      throw new RangeError(`a worker pool needs at least one thread, got ${settings.size}`);
    }
  }

  /** Threads running now. */
  get threads(): number {
    return this.workers.length;
  }

  /**
   * Runs a task on a thread; `transfer` lists buffers moved to the thread instead of copied. Rejects with
   * {@link WorkerUnavailableError}, the task not sent (its buffers still the caller's), when the thread could
   * not set itself up.
   */
  async run(task: Task, transfer: ArrayBuffer[] = []): Promise<Answer> {
    if (this.closed) throw workerFailed('the server is stopping');
    const chosen = this.leastBusy();
    chosen.waiting++;
    try {
      await chosen.ready;
    } finally {
      chosen.waiting--;
    }
    if (this.closed) throw workerFailed('the server is stopping');
    const id = this.nextId++;
    return new Promise<Answer>((resolve, reject) => {
      chosen.pending.set(id, { resolve, reject });
      const message: WorkerRequest<Task> = { type: 'task', id, task };
      chosen.worker.postMessage(message, transfer);
    });
  }

  /** Aborts the work in flight on every thread. */
  abort(reason: string): void {
    const message: WorkerRequest<Task> = { type: 'abort', reason };
    for (const { worker } of this.workers) worker.postMessage(message);
  }

  /** Ends every thread; the tasks they held are rejected. Later tasks are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const ending = this.workers.splice(0);
    for (const entry of ending) this.failAll(entry, 'the server is stopping');
    await Promise.all(ending.map(({ worker }) => worker.terminate()));
  }

  private leastBusy(): PoolWorker<Answer> {
    const load = (entry: PoolWorker<Answer>) => entry.pending.size + entry.waiting;
    let chosen: PoolWorker<Answer> | undefined;
    for (const entry of this.workers) {
      if (chosen === undefined || load(entry) < load(chosen)) chosen = entry;
    }
    if (chosen !== undefined && (load(chosen) === 0 || this.workers.length >= this.settings.size)) {
      return chosen;
    }
    return this.start();
  }

  private start(): PoolWorker<Answer> {
    const worker = new Worker(this.settings.script, { workerData: this.settings.workerData });
    worker.unref();
    let setUp!: { resolve(): void; reject(error: Error): void };
    const ready = new Promise<void>((resolve, reject) => {
      setUp = { resolve, reject };
    });
    // Every task waiting on it handles a failure; this keeps a worker no task waits on from an unhandled one.
    ready.catch(() => undefined);
    const entry: PoolWorker<Answer> = { worker, ready, pending: new Map(), waiting: 0 };
    this.workers.push(entry);
    worker.on('message', (reply: WorkerReply<Answer>) => {
      if (reply.type === 'ready') setUp.resolve();
      else if (reply.type === 'unavailable') setUp.reject(new WorkerUnavailableError(reply.reason));
      else {
        const task = entry.pending.get(reply.id);
        if (task === undefined) return;
        entry.pending.delete(reply.id);
        task.resolve(reply.answer);
      }
    });
    const died = (detail: string) => {
      const index = this.workers.indexOf(entry);
      if (index !== -1) this.workers.splice(index, 1);
      setUp.reject(workerFailed(detail));
      this.failAll(entry, detail);
    };
    worker.on('error', (error) => died(error.message));
    worker.on('exit', (code) => died(`exit code ${code}`));
    return entry;
  }

  private failAll(entry: PoolWorker<Answer>, detail: string): void {
    const tasks = [...entry.pending.values()];
    entry.pending.clear();
    for (const task of tasks) task.reject(workerFailed(detail));
  }
}

import { HttpError } from '../errors/http-error.js';

/** A place held by one admitted request: running, or waiting for a slot. */
export interface LimiterTicket {
  /** Runs the operation in a slot, waiting for one to be free (first come, first served). */
  run<T>(operation: () => Promise<T>): Promise<T>;
  /** Gives the place back; call once the request is done (idempotent). */
  release(): void;
}

/** Seconds a refused client is told to wait before it retries. */
export const busyRetryAfterSeconds = 1;

/**
 * Caps concurrent compactions: `concurrency` run at once, up to `queueLength` more wait for a slot in
 * arrival order, and any request beyond that is refused at once with 503 and `Retry-After` rather than
 * held. A request is admitted before it waits for its session (requests to one session run one at a
 * time), so waiting on a session counts against the queue too and cannot grow without bound.
 */
export class CompactionLimiter {
  private admitted = 0;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly queueLength: number,
  ) {}

  /** Requests admitted and not yet released: running or waiting. */
  get size(): number {
    return this.admitted;
  }

  /** Admits a request, or throws 503 `server-busy` when every slot and queue place is taken. */
  admit(): LimiterTicket {
    if (this.admitted >= this.concurrency + this.queueLength) {
      throw new HttpError({
        status: 503,
        errorCode: 'server-busy',
        message:
          `${this.concurrency} compactions are running and ${this.queueLength} are waiting; ` +
          `retry after ${busyRetryAfterSeconds} s`,
      });
    }
    this.admitted++;
    let released = false;
    return {
      run: (operation) => this.runInSlot(operation),
      release: () => {
        if (released) return;
        released = true;
        this.admitted--;
      },
    };
  }

  private async runInSlot<T>(operation: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await operation();
    } finally {
      // The slot passes straight to the next waiter, so a newcomer cannot overtake the queue.
      const next = this.waiting.shift();
      if (next === undefined) this.running--;
      else next();
    }
  }
}

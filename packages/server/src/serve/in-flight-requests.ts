import type { ServerResponse } from 'node:http';

/**
 * The answers a server is writing: requests in flight, which a graceful stop waits for, and event streams,
 * which live until their session ends and which a stop ends itself instead of waiting for.
 */
export class InFlightRequests {
  private readonly requests = new Set<ServerResponse>();
  private readonly streams = new Set<ServerResponse>();
  private readonly idleWaiters = new Set<() => void>();

  /** Requests in flight, event streams left out. */
  get size(): number {
    return this.requests.size;
  }

  /** Follows a request until its answer is done (or its connection closes). */
  add(response: ServerResponse): void {
    this.requests.add(response);
    response.once('close', () => {
      this.requests.delete(response);
      if (this.requests.size === 0) for (const waiter of this.idleWaiters) waiter();
    });
  }

  /** Counts a request as an event stream from now on: a stop does not wait for it. */
  becomeStream(response: ServerResponse): void {
    if (!this.requests.delete(response)) return;
    if (this.requests.size === 0) for (const waiter of this.idleWaiters) waiter();
    this.streams.add(response);
    response.once('close', () => this.streams.delete(response));
  }

  /** Makes every answer not yet started close its connection after it, so no connection outlives a stop. */
  closeConnectionsAfterAnswers(): void {
    for (const response of this.requests)
      if (!response.headersSent) response.setHeader('connection', 'close');
  }

  /** Resolves `true` once no request is in flight, or `false` when `timeoutMs` passes first. */
  settled(timeoutMs: number): Promise<boolean> {
    if (this.requests.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (finished: boolean) => {
        clearTimeout(timer);
        this.idleWaiters.delete(idle);
        resolve(finished);
      };
      const idle = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.idleWaiters.add(idle);
    });
  }

  /** Resolves once every event stream open now has been written to its end or closed. */
  streamsEnded(): Promise<void> {
    return Promise.all(
      [...this.streams].map(
        (stream) => new Promise<void>((resolve) => stream.once('close', resolve).once('finish', resolve)),
      ),
    ).then(() => undefined);
  }
}

import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import type { CompactionStore } from '@compaction/core';
import { HttpError } from '../errors/http-error.js';

/** The store methods that only read; every other one (append, metadata, locks, deletions) writes. */
const readingMethods = new Set(['list', 'sessions', 'getSessionMetadata', 'opened', 'close']);

/** The request a store call is made for, found through the call chain that began with it. */
interface RequestContext {
  response: ServerResponse;
}

/** The error of a write a request tries after the shutdown timeout cut it off: nothing of it is written. */
function cutOffError(): HttpError {
  return new HttpError({
    status: 503,
    errorCode: 'shutting-down',
    message: 'the server stopped before this change was written; nothing of it was kept',
  });
}

/**
 * Keeps what a client is told and what the store keeps in agreement when a stop cuts requests off at its
 * timeout. Before the timeout nothing changes. At the timeout, {@link close} refuses every store write a
 * request starts from then on (the request fails and writes nothing), lets the writes already under way
 * finish, and waits until the requests that wrote have sent their answers; only then may the connections
 * close. So a client whose connection was closed during a stop changed nothing and can retry, and one whose
 * change was written was told so. The server's own writes (activity times, expiry) are never refused.
 */
export class ShutdownWriteGate {
  private readonly requests = new AsyncLocalStorage<RequestContext>();
  private closed = false;
  /** Writes of requests still under way. */
  private readonly writing = new Set<Promise<unknown>>();
  /** Requests that wrote something and have not finished their answer. */
  private readonly wrote = new Set<ServerResponse>();

  /** Runs a request's handler; the store writes made on its behalf are the request's. */
  run<T>(response: ServerResponse, handler: () => Promise<T>): Promise<T> {
    return this.requests.run({ response }, handler);
  }

  /** The store as requests use it: the same store, with its writes passing through the gate. */
  guard(store: CompactionStore): CompactionStore {
    return new Proxy(store, {
      get: (target, property) => {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        const method = value as (...parameters: unknown[]) => unknown;
        if (typeof property !== 'string' || readingMethods.has(property)) return method.bind(target);
        return (...parameters: unknown[]) => this.write(() => method.apply(target, parameters));
      },
    });
  }

  /**
   * Refuses the writes requests start from now on, then resolves once the writes under way have settled
   * and every request that wrote has finished its answer (or lost its connection).
   */
  async close(): Promise<void> {
    this.closed = true;
    while (this.writing.size > 0) await Promise.allSettled([...this.writing]);
    await Promise.all(
      [...this.wrote].map((response) => new Promise((resolve) => response.once('close', resolve))),
    );
  }

  private write(operation: () => unknown): unknown {
    const request = this.requests.getStore();
    if (request === undefined) return operation();
    if (this.closed) return Promise.reject(cutOffError());
    const { response } = request;
    if (!this.wrote.has(response) && !response.writableFinished && !response.destroyed) {
      this.wrote.add(response);
      response.once('close', () => this.wrote.delete(response));
    }
    const result = operation();
    if (result instanceof Promise) {
      this.writing.add(result);
      const settled = () => this.writing.delete(result);
      result.then(settled, settled);
    }
    return result;
  }
}

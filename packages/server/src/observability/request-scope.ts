import { AsyncLocalStorage } from 'node:async_hooks';

/** The request a piece of work runs for: what a compaction's log line names. */
export interface RequestScope {
  requestId: string;
  route: string;
  sessionId?: string;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/** Runs `work` as part of the request `scope`; the compactions it starts are logged with its id. */
export function runInRequestScope<Result>(scope: RequestScope, work: () => Result): Result {
  return scopes.run(scope, work);
}

/** The request the current work runs for; `undefined` outside one (a sweep, a restore). */
export function currentRequestScope(): RequestScope | undefined {
  return scopes.getStore();
}

import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { HttpError } from '../errors/http-error.js';
import { CompactionLimiter } from './compaction-limiter.js';

/** A promise and the function that settles it, so a test decides when an operation ends. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

// Not on the Node 22 compatibility run: the limiter is plain code, with no module of the runtime (the Node 20 run
// has run it).
describeOnFullRun('CompactionLimiter', () => {
  it('runs at most `concurrency` operations at once, the rest in arrival order', async () => {
    const limiter = new CompactionLimiter(2, 10);
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const runs = gates.map((gate, index) => {
      const ticket = limiter.admit();
      return ticket
        .run(async () => {
          started.push(index);
          running++;
          most = Math.max(most, running);
          await gate.promise;
          running--;
          return index;
        })
        .finally(ticket.release);
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    // Freeing the second slot first still starts the waiters in the order they came.
    gates[1]!.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(limiter.size).toBe(0);
  });

  it('refuses with 503 once every slot and queue place is taken, and admits again when one frees', async () => {
    const limiter = new CompactionLimiter(1, 1);
    const first = limiter.admit();
    const second = limiter.admit();
    const error = (() => {
      try {
        limiter.admit();
      } catch (caught) {
        return caught;
      }
    })();
    expect(HttpError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 503, errorCode: 'server-busy' });
    second.release();
    second.release(); // idempotent: the place is given back once
    expect(limiter.size).toBe(1);
    const third = limiter.admit();
    expect(limiter.size).toBe(2);
    first.release();
    third.release();
    expect(limiter.size).toBe(0);
  });

  it('frees the slot when an operation fails', async () => {
    const limiter = new CompactionLimiter(1, 0);
    const ticket = limiter.admit();
    await expect(ticket.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    ticket.release();
    const next = limiter.admit();
    expect(await next.run(async () => 'ran')).toBe('ran');
  });
});

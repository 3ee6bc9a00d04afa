import { describe, expect, it } from 'vitest';
import { HttpError } from '../errors/http-error.js';
import { WorkerPool, WorkerUnavailableError } from './worker-pool.js';

type Task = { action: 'echo'; value: number } | { action: 'throw' | 'exit' | 'hold' };

const script = new URL('../__fixtures__/scripted-worker.mjs', import.meta.url);
const echo = (value: number): Task => ({ action: 'echo', value });

/** The code of a rejection, which must be an HttpError. */
async function failureOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(HttpError.isInstance(error)).toBe(true);
  const { status, errorCode } = error as HttpError;
  return { status, errorCode };
}

describe('WorkerPool', () => {
  it('starts threads as work arrives, up to its size', async () => {
    const pool = new WorkerPool<Task, { echo: number }>({ script, size: 2 });
    expect(pool.threads).toBe(0);
    expect(await Promise.all([1, 2, 3, 4].map((value) => pool.run(echo(value))))).toEqual(
      [1, 2, 3, 4].map((value) => ({ echo: value })),
    );
    expect(pool.threads).toBe(2);
    await pool.close();
    expect(pool.threads).toBe(0);
  });

  it.each(['throw', 'exit'] as const)(
    'answers every task of a thread that dies (%s) with a 500 and replaces the thread',
    async (action) => {
      const pool = new WorkerPool<Task, { echo: number }>({ script, size: 1 });
      const held = failureOf(pool.run({ action: 'hold' }));
      const failure = failureOf(pool.run({ action }));
      const expected = { status: 500, errorCode: 'compaction-worker-failed' };
      expect(await failure).toEqual(expected);
      // The task waiting on the same thread fails too, instead of hanging.
      expect(await held).toEqual(expected);
      expect(await pool.run(echo(7))).toEqual({ echo: 7 });
      expect(pool.threads).toBe(1);
      await pool.close();
    },
  );

  it('rejects the tasks in flight when closed, and refuses new ones', async () => {
    const pool = new WorkerPool<Task, { echo: number }>({ script, size: 1 });
    const held = failureOf(pool.run({ action: 'hold' }));
    await pool.close();
    expect(await held).toEqual({ status: 500, errorCode: 'compaction-worker-failed' });
    expect(await failureOf(pool.run(echo(1)))).toEqual({
      status: 500,
      errorCode: 'compaction-worker-failed',
    });
    expect(pool.threads).toBe(0);
  });

  it('says when its threads cannot set themselves up, before a task is sent', async () => {
    const pool = new WorkerPool<Task, { echo: number }>({
      script,
      size: 1,
      workerData: { unavailable: true },
    });
    const body = new Uint8Array([1, 2, 3]);
    await expect(pool.run(echo(1), [body.buffer])).rejects.toBeInstanceOf(WorkerUnavailableError);
    // Not sent, so not moved to the thread: the caller still has it to do the task another way.
    expect(body.byteLength).toBe(3);
    await pool.close();
  });

  it('moves the buffers it is told to transfer', async () => {
    const pool = new WorkerPool<Task, { echo: number }>({ script, size: 1 });
    const body = new Uint8Array([1, 2, 3]);
    expect(await pool.run(echo(2), [body.buffer])).toEqual({ echo: 2 });
    expect(body.byteLength).toBe(0);
    await pool.close();
  });

  it('refuses a size below one thread', () => {
    expect(() => new WorkerPool({ script, size: 0 })).toThrow(RangeError);
  });
});

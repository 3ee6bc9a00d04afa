import { InvalidOptionsError } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import {
  noteBeforeCompactionPrompt,
  resolveNoteBeforeCompaction,
  withTimeout,
} from './note-before-compaction.js';
import { NoteTimeoutError } from './note-timeout-error.js';

describe('resolveNoteBeforeCompaction', () => {
  it('is off unless asked for, and fills the defaults', () => {
    expect(resolveNoteBeforeCompaction(undefined)).toBeUndefined();
    expect(resolveNoteBeforeCompaction(false)).toBeUndefined();
    expect(resolveNoteBeforeCompaction(true)).toEqual({
      prompt: noteBeforeCompactionPrompt,
      maximumTokens: 1024,
      timeoutMs: 30_000,
    });
  });

  it('refuses limits that cannot bound the note turn, naming each', () => {
    const resolve = () => resolveNoteBeforeCompaction({ maximumTokens: 0, timeoutMs: -1, prompt: ' ' });
    expect(resolve).toThrow(InvalidOptionsError);
    expect(resolve).toThrow(/maximumTokens[\s\S]*timeoutMs[\s\S]*prompt/);
  });
});

describe('withTimeout', () => {
  it('aborts the call after the timeout with a NoteTimeoutError', async () => {
    const never = (signal: AbortSignal) =>
      new Promise<string>((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason)),
      );
    const error = await withTimeout(20, undefined, never).catch((caught: unknown) => caught);
    expect(NoteTimeoutError.isInstance(error)).toBe(true);
    expect((error as NoteTimeoutError).code).toBe('agent-loop/note-timeout');
  });

  it("passes the caller's abort on as it is", async () => {
    const controller = new AbortController();
    const reason = new Error('stopped by the caller');
    const waiting = withTimeout(
      10_000,
      controller.signal,
      (signal) =>
        new Promise<string>((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason)),
        ),
    );
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });
});

import { CompactionError } from '@compaction/core';

/** The note turn before a compaction (`beforeCompaction`) took longer than its `timeoutMs` and was aborted. */
export class NoteTimeoutError extends CompactionError {
  static override readonly marker: string = 'compaction.error.note-timeout';
  override readonly name: string = 'NoteTimeoutError';
  /** The time the note turn had, in milliseconds. */
  declare readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super({
      code: 'agent-loop/note-timeout',
      message: `the note turn before the compaction took longer than ${timeoutMs} ms and was aborted`,
    });
    Object.assign(this, { timeoutMs });
  }
}

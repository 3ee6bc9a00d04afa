import type { BackgroundSettings, CompactionHooks, Compactor } from '@compaction/core';

/**
 * The background compactions of a server's sessions, counted against one cap. Each session has a Compactor
 * of its own, whose `maximumConcurrent` bounds that Compactor only (one job, its session's): the server's cap
 * is kept here, across them all.
 */
export class BackgroundSlots {
  private taken = 0;

  constructor(
    /** What each session's Compactor is given. */
    readonly settings: BackgroundSettings,
    /** Background compactions held at once across the sessions: running, or done and not yet used. */
    readonly maximum = settings.maximumConcurrent ?? 4,
  ) {}

  /** Background compactions holding a slot now. */
  get size(): number {
    return this.taken;
  }

  /** Takes a slot; false when every one is taken. */
  take(): boolean {
    if (this.taken >= this.maximum) return false;
    this.taken++;
    return true;
  }

  release(): void {
    this.taken = Math.max(0, this.taken - 1);
  }
}

/**
 * Holds one session's background compaction to the server's cap. Its Compactor announces a job (`started`)
 * before the job's own compaction asks the `beforeCompaction` hook: that compaction takes a slot, or, when
 * none is free, is cancelled (the job ends `skipped`, and the session compacts in line at the trigger). The
 * slot is given back when the job's result is used or dropped. Until a job reaches the hook, no other
 * automatic compaction of the session runs: the Compactor waits for the job, or drops it, before compacting in
 * line.
 */
export class SessionBackground {
  /** A job announced whose compaction has not asked the hook yet. */
  private announced = false;
  private holding = false;

  constructor(private readonly slots: BackgroundSlots) {}

  /** The hooks the session's Compactor is built with. */
  readonly hooks: CompactionHooks = {
    beforeCompaction: ({ trigger }) => {
      if (trigger !== 'auto' || !this.announced) return undefined;
      this.announced = false;
      if (this.holding || this.slots.take()) {
        this.holding = true;
        return undefined;
      }
      return { cancel: true };
    },
  };

  /** Follows the Compactor's background events. */
  follow(compactor: Pick<Compactor, 'on'>): void {
    compactor.on('background', (event) => {
      if (event.status === 'started') {
        this.announced = true;
        return;
      }
      // Used or dropped: the job is over, whether it reached the hook or not.
      this.announced = false;
      if (this.holding) {
        this.holding = false;
        this.slots.release();
      }
    });
  }
}

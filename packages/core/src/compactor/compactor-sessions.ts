import type { Message } from '../messages/message.js';
import type { CompactionTrigger } from '../specs/compaction-strategy-v1.js';

/** What the Compactor keeps for one session; `Result` is what a compaction returns. */
export interface SessionState<Result> {
  rounds: number;
  /** Compactions queued or running; a session with any is never evicted. */
  underWay: number;
  /** The automatic compaction under way, which concurrent `prepare` calls on the same history share. */
  automatic?: { input: readonly Message[]; result: Promise<Result> };
  last?: { output: readonly Message[]; tokensAfter: number; trigger: CompactionTrigger };
  running: Promise<unknown>;
}

/**
 * Session states in order of use, least recent first: a Map keeps insertion order, and a use re-inserts.
 * Beyond `maximum` sessions, the least recently used one with nothing under way is forgotten.
 */
export class CompactorSessions<Result> {
  private readonly states = new Map<string, SessionState<Result>>();

  constructor(private readonly maximum: number) {}

  /** The state of a session, if it has any; marks it the most recently used. */
  find(sessionId: string): SessionState<Result> | undefined {
    const state = this.states.get(sessionId);
    if (state !== undefined) {
      this.states.delete(sessionId);
      this.states.set(sessionId, state);
    }
    return state;
  }

  /** The state of a session, created when it has none; marks it the most recently used. */
  get(sessionId: string): SessionState<Result> {
    const existing = this.find(sessionId);
    if (existing !== undefined) return existing;
    const state: SessionState<Result> = { rounds: 0, underWay: 0, running: Promise.resolve() };
    this.states.set(sessionId, state);
    for (const [id, candidate] of this.states) {
      if (this.states.size <= this.maximum) break;
      if (candidate.underWay === 0 && id !== sessionId) this.states.delete(id);
    }
    return state;
  }

  forget(sessionId: string): void {
    this.states.delete(sessionId);
  }
}

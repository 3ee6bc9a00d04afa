import { HttpError } from '../errors/http-error.js';
import type { CompactionSession, SessionEndReason } from './compaction-session.js';
import { reportProblem } from './report-problem.js';

/** Settings of {@link LiveSessions}. */
export interface LiveSessionsSettings {
  /** Most sessions kept at once; creating more answers 429. */
  maxSessions: number;
  /** A session unused for this long (and not busy) is forgotten, in milliseconds. */
  idleMs: number;
  /** Runs when a session is deleted or expires (not when the server stops), to remove it from the store. */
  onRemoved?: (session: CompactionSession, reason: SessionEndReason) => Promise<void>;
}

/** A place held for a session being created (see {@link LiveSessions.reserve}). */
export interface SessionReservation {
  /** Lists the session in the place held for it. */
  add(session: CompactionSession): void;
  /** Gives the place back (when the creation failed, or its client left); nothing once it was added. */
  release(): void;
}

/** One page of sessions and the cursor of the next, if there is one. */
export interface SessionPage {
  sessions: CompactionSession[];
  nextCursor?: string;
}

/**
 * How often idle sessions are looked for: a few sweeps per idle period keep an expired session's overstay under
 * a third of the idle time.
 */
export function sweepIntervalMs(idleMs: number): number {
  return Math.max(10, Math.min(60_000, Math.floor(idleMs / 4)));
}

/** Largest page of `GET /v1/sessions`. */
export const maxSessionPage = 1000;

/**
 * The sessions a server keeps, in creation order. A session idle for `idleMs` expires: a sweep, run a few
 * times per idle period, removes it and ends its event streams. Pages follow creation order with an opaque
 * cursor (a creation number), so deleting or expiring sessions between pages skips or repeats none.
 */
export class LiveSessions {
  private readonly sessions = new Map<string, CompactionSession>();
  private created = 0;
  /** Places held by creations under way, counted against the cap. */
  private reserved = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly settings: LiveSessionsSettings) {
    this.sweeper = setInterval(() => this.expire(), sweepIntervalMs(settings.idleMs));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Throws 429 when no session can be added. */
  checkCapacity(): void {
    if (this.sessions.size + this.reserved >= this.settings.maxSessions) {
      throw new HttpError({
        status: 429,
        errorCode: 'too-many-sessions',
        message: `this server keeps at most ${this.settings.maxSessions} sessions; delete some or wait for idle ones to expire`,
      });
    }
  }

  /**
   * Holds a place for a session before anything of it is made or written (its first compaction records in the
   * store), so creations running at once are refused up front with 429, never after they wrote; throws 429
   * when the cap is reached.
   */
  reserve(): SessionReservation {
    this.checkCapacity();
    this.reserved++;
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      this.reserved--;
    };
    return {
      add: (session) => {
        release();
        try {
          this.add(session);
        } catch (error) {
          // Only when the place was given back early (its client left during the creation) and taken since:
          // what the creation wrote to the store goes too.
          this.settings
            .onRemoved?.(session, 'deleted')
            .catch((problem: unknown) =>
              reportProblem(`refused session "${session.id}" not removed from the store`, problem),
            );
          throw error;
        }
      },
      release,
    };
  }

  /**
   * Lists a new session, numbered after every other. A session restored from the store keeps its number and
   * is not refused past the cap (they are restored in creation order, before any new one).
   */
  add(session: CompactionSession, restored = false): void {
    if (restored) {
      this.created = Math.max(this.created, session.sequence);
    } else {
      this.checkCapacity();
      session.sequence = ++this.created;
    }
    this.sessions.set(session.id, session);
  }

  /** The session if this server keeps it, not marked as used. */
  find(id: string): CompactionSession | undefined {
    return this.sessions.get(id);
  }

  /** The session, marked as used now; 404 when there is none. */
  get(id: string): CompactionSession {
    const session = this.sessions.get(id);
    if (session === undefined) {
      throw new HttpError({ status: 404, errorCode: 'session-not-found', message: `no session "${id}"` });
    }
    session.touch();
    return session;
  }

  /**
   * Removes a session, ends its event streams, and resolves once it is removed from the store too: after the
   * operations it had under way, whose compactions would otherwise record in the store after the removal.
   */
  async delete(id: string, reason: SessionEndReason = 'deleted'): Promise<void> {
    const session = this.sessions.get(id);
    if (session === undefined) return;
    this.sessions.delete(id);
    session.end(reason);
    await session.settled();
    await this.settings.onRemoved?.(session, reason);
  }

  /** Sessions in creation order, after the cursor, at most `limit`; 400 for a cursor it did not give. */
  page(limit: number, cursor?: string): SessionPage {
    let after = 0;
    if (cursor !== undefined) {
      after = /^[0-9a-z]{1,11}$/.test(cursor) ? Number.parseInt(cursor, 36) : Number.NaN;
      if (!Number.isSafeInteger(after)) {
        throw new HttpError({
          status: 400,
          errorCode: 'invalid-cursor',
          message: `cursor "${cursor}" is not one this server gave`,
        });
      }
    }
    const sessions: CompactionSession[] = [];
    let last = after;
    for (const session of this.sessions.values()) {
      if (session.sequence <= after) continue;
      if (sessions.length === limit) return { sessions, nextCursor: last.toString(36) };
      sessions.push(session);
      last = session.sequence;
    }
    return { sessions };
  }

  /** Removes sessions idle for longer than the idle time; returns how many. */
  expire(now = Date.now()): number {
    let expired = 0;
    for (const [id, session] of this.sessions) {
      if (session.busy || now - session.lastActiveAt < this.settings.idleMs) continue;
      this.delete(id, 'expired').catch((error: unknown) =>
        reportProblem(`expired session "${id}" not removed from the store`, error),
      );
      expired++;
    }
    return expired;
  }

  /** Ends every session's event streams and stops the sweep (the server is stopping). */
  close(): void {
    clearInterval(this.sweeper);
    for (const session of this.sessions.values()) session.end('shutdown');
  }
}

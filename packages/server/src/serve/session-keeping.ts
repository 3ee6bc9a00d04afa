import type { CompactionStore, JSONValue, Provider, StrategyRegistry } from '@compaction/core';
import type { CompactionSettings } from '../config/resolve-settings.js';
import type { CompactionObserver } from '../observability/service-observability.js';
import type { StrategyThreads } from '../workers/threaded-strategy.js';
import type { BackgroundSlots } from './background-slots.js';
import { CompactionSession, type SessionEndReason, type SessionOptions } from './compaction-session.js';
import { LiveSessions, sweepIntervalMs } from './live-sessions.js';
import { reportProblem } from './report-problem.js';
import { type RestoredSession, SessionPersistence } from './session-persistence.js';

/** What {@link keepSessions} builds sessions with. */
export interface SessionKeepingOptions {
  registry: StrategyRegistry;
  /** The store, its writes already guarded by the stop's write gate; none keeps sessions in memory only. */
  store?: CompactionStore;
  maxSessions: number;
  maxSessionBytes: number;
  idleMs: number;
  /** The operator's settings with a request's config laid over it. */
  settingsFor(config: unknown): CompactionSettings;
  providerFor(settings: CompactionSettings): Promise<Provider | undefined>;
  /** Where sessions' large strategies run; none runs them on the event loop. */
  threads?: StrategyThreads;
  /** What hears the sessions' compactions (the server's metrics and log) and traces their Compactors. */
  observer?: CompactionObserver;
  /** The sessions' background compaction and its cap across them; none compacts in line only. */
  background?: BackgroundSlots;
}

/** The live sessions of a server, how they are built, and how they are kept in and read from the store. */
export interface SessionKeeping {
  sessions: LiveSessions;
  persistence?: SessionPersistence;
  /** A new session built from a request's or the store's config, with the server's limits and store. */
  buildSession(id: string, config: unknown, options: SessionOptions): Promise<CompactionSession>;
  /**
   * The session of a request, marked as used; 404 when there is none. Shared, a session this server does
   * not keep yet is read from the store (another server created it).
   */
  sessionOf(id: string): Promise<CompactionSession>;
  /**
   * Restores the store's sessions, in creation order; those idle past their time while no server ran expire
   * at once. Resolves with how many are left.
   */
  restoreSessions(): Promise<number>;
}

/** The sessions of one server over its store (or in memory). */
export function keepSessions(options: SessionKeepingOptions): SessionKeeping {
  const { registry, store, idleMs } = options;
  const persistence =
    store === undefined ? undefined : new SessionPersistence(store, sweepIntervalMs(idleMs));
  // A store with session locks is shared with other servers: sessions are read from it when used, not kept.
  const shared = store?.withSessionLock !== undefined;
  const sessions = new LiveSessions({
    maxSessions: options.maxSessions,
    idleMs,
    onRemoved: (session, reason) => forgetSession(persistence, shared, idleMs, session, reason),
  });

  const buildSession = async (id: string, config: unknown, sessionOptions: SessionOptions) => {
    const settings = options.settingsFor(config);
    return CompactionSession.create(id, settings, registry, await options.providerFor(settings), {
      ...sessionOptions,
      ...(config === undefined ? {} : { config: config as JSONValue }),
      maxBytes: options.maxSessionBytes,
      ...(store === undefined ? {} : { store, shared }),
      ...(options.threads === undefined ? {} : { threads: options.threads }),
      ...(options.background === undefined ? {} : { background: options.background }),
      ...(options.observer === undefined ? {} : { observer: options.observer }),
      ...(options.observer?.compactorObservers === undefined
        ? {}
        : { compactorObservers: options.observer.compactorObservers }),
    });
  };
  /** A session built again from what the store kept of it. */
  const rebuild = ({ id, stored, messages, events }: RestoredSession): Promise<CompactionSession> =>
    buildSession(id, stored.config, {
      format: stored.format,
      ...(stored.shape === undefined ? {} : { shape: stored.shape }),
      restored: {
        sequence: stored.sequence,
        createdAt: stored.createdAt,
        lastActiveAt: Date.parse(stored.lastActiveAt),
        messages,
        events,
        ...(stored.appliedRequests === undefined ? {} : { appliedRequests: stored.appliedRequests }),
      },
    });
  /** A session as the store has it, built and kept by this server; `undefined` when the store has none. */
  const load = async (id: string): Promise<CompactionSession | undefined> => {
    const found = await persistence?.read(id);
    if (found === undefined) return undefined;
    const session = await rebuild(found);
    // Another request may have loaded it meanwhile: the first one kept wins.
    const kept = sessions.find(id);
    if (kept !== undefined) return kept;
    sessions.add(session, true);
    if (persistence !== undefined) session.keepIn(persistence);
    return session;
  };
  const sessionOf = async (id: string): Promise<CompactionSession> => {
    if (shared && sessions.find(id) === undefined) await load(id);
    return sessions.get(id);
  };
  const restoreSessions = async (): Promise<number> => {
    if (persistence === undefined || shared) return 0;
    for (const found of await persistence.restore()) {
      let session: CompactionSession;
      try {
        session = await rebuild(found);
      } catch (error) {
        reportProblem(`session "${found.id}" not restored`, error);
        continue;
      }
      sessions.add(session, true);
      session.keepIn(persistence);
    }
    sessions.expire();
    return sessions.size;
  };
  return {
    sessions,
    ...(persistence === undefined ? {} : { persistence }),
    buildSession,
    sessionOf,
    restoreSessions,
  };
}

/** Removes a deleted or expired session from the store; shared, only when no server used it lately. */
async function forgetSession(
  persistence: SessionPersistence | undefined,
  shared: boolean,
  idleMs: number,
  session: CompactionSession,
  reason: SessionEndReason,
): Promise<void> {
  if (persistence === undefined) return;
  if (shared && reason === 'expired') {
    const stored = await persistence.read(session.id).catch(() => undefined);
    const lastActiveAt = stored === undefined ? 0 : Date.parse(stored.stored.lastActiveAt);
    if (Date.now() - lastActiveAt < idleMs) return;
  }
  await persistence.forget(session.id);
}

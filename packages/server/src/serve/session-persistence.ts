import {
  type CompactionEvent,
  type CompactionStore,
  findMessageIssues,
  type JSONObject,
  type JSONValue,
  type Message,
} from '@compaction/core';
import { describeExcessiveNesting, findExcessiveNesting } from '@compaction/formats';
import { HttpError } from '../errors/http-error.js';
import { reportProblem } from './report-problem.js';
import { type ConversationShape, type ServedFormat, servedFormatNames } from './request-conversation.js';

/** What the store keeps of a session besides its messages (its metadata key `serve`). */
export interface StoredSession {
  /** The layout of this entry, so a later version can read older ones. */
  version: 1;
  /** The creation number: `GET /v1/sessions` pages and their cursors stay the same across a restart. */
  sequence: number;
  createdAt: string;
  lastActiveAt: string;
  format: ServedFormat;
  /** The request fields and shape of the conversation the session began with. */
  shape?: ConversationShape;
  /** The request's `config`, checked against the request policy again when the session is restored. */
  config?: JSONValue;
  /** The `Idempotency-Key`s of its newest appends, so an append retried with its key is applied once. */
  appliedRequests?: string[];
}

/** A session as the store gave it back at start-up. */
export interface RestoredSession {
  id: string;
  stored: StoredSession;
  messages: Message[];
  /** Its compaction events, oldest first. */
  events: CompactionEvent[];
}

/** What {@link SessionPersistence} saves of a live session. */
export interface PersistedSession {
  readonly id: string;
  readonly messages: Message[];
  stored(): StoredSession;
}

/** Metadata keys of a session in the store. */
const sessionKey = 'serve';
const messagesKey = 'serveMessages';

/**
 * Keeps the server's sessions in a {@link CompactionStore}, through its session metadata: the session's
 * description under `serve`, its messages under `serveMessages`. The Compactor appends each compaction and the
 * messages it removed to the same store. Writes for one session run in order; a read only marks the session
 * as used, and those marks are written every `activityIntervalMs` and at a stop, so reading a session does not
 * rewrite it.
 */
export class SessionPersistence {
  private readonly writes = new Map<string, Promise<void>>();
  private readonly used = new Map<string, PersistedSession>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly store: CompactionStore,
    activityIntervalMs: number,
  ) {
    this.timer = setInterval(() => {
      this.flushActivity().catch((error: unknown) => reportProblem('could not save session activity', error));
    }, activityIntervalMs);
    this.timer.unref();
  }

  /** The sessions the store holds, in creation order; entries it cannot read are reported and left alone. */
  async restore(): Promise<RestoredSession[]> {
    const restored: RestoredSession[] = [];
    for (const id of await this.store.sessions()) {
      const metadata = await this.store.getSessionMetadata(id);
      if (metadata?.[sessionKey] === undefined) continue;
      const problem = storedProblem(metadata);
      if (problem !== undefined) {
        reportProblem(`session "${id}" not restored`, problem);
        continue;
      }
      const records = await this.store.list(id);
      restored.push({
        id,
        stored: metadata[sessionKey] as unknown as StoredSession,
        messages: metadata[messagesKey] as unknown as Message[],
        events: records.map((record) => record.event),
      });
    }
    return restored.sort((first, second) => first.stored.sequence - second.stored.sequence);
  }

  /**
   * One session as the store has it now, or `undefined` when the store has none (never saved, or deleted);
   * a stored entry that cannot be read is a 500 `store-failed`.
   */
  async read(id: string): Promise<RestoredSession | undefined> {
    const metadata = await this.store.getSessionMetadata(id);
    if (metadata?.[sessionKey] === undefined) return undefined;
    const problem = storedProblem(metadata);
    if (problem !== undefined) {
      throw new HttpError({
        status: 500,
        errorCode: 'store-failed',
        message: `session "${id}" cannot be read from the store: ${problem}`,
      });
    }
    const records = await this.store.list(id);
    return {
      id,
      stored: metadata[sessionKey] as unknown as StoredSession,
      messages: metadata[messagesKey] as unknown as Message[],
      events: records.map((record) => record.event),
    };
  }

  /** Saves a session, with `messages` as its messages (its own by default). */
  save(session: PersistedSession, messages: readonly Message[] = session.messages): Promise<void> {
    this.used.delete(session.id);
    const metadata = { [sessionKey]: session.stored(), [messagesKey]: messages } as unknown as JSONObject;
    return this.write(session.id, () => this.store.updateSessionMetadata(session.id, metadata));
  }

  /** Marks a session as used now; the time is written with the next batch. */
  touched(session: PersistedSession): void {
    this.used.set(session.id, session);
  }

  /** Writes the time of last use of every session used since the last batch. */
  async flushActivity(): Promise<void> {
    const sessions = [...this.used.values()];
    this.used.clear();
    // A store shared with other servers may have lost the session to a delete on another server: a time of
    // use must not bring back a description without messages. (Not under the session's lock: a change of
    // this server holding it may be waiting on this very write.)
    const shared = this.store.withSessionLock !== undefined;
    await Promise.all(
      sessions.map((session) =>
        this.write(session.id, async () => {
          if (shared && (await this.store.getSessionMetadata(session.id))?.[sessionKey] === undefined) return;
          await this.store.updateSessionMetadata(session.id, {
            [sessionKey]: session.stored() as unknown as JSONObject,
          });
        }),
      ),
    );
  }

  /**
   * Deletes a session from the store, after the writes already asked for (the session no longer asks for any:
   * see `CompactionSession.end`): its description, its messages, its compaction records with the messages
   * they removed and what they archived, in one transaction. A store without `deleteSession` loses only the
   * description and messages.
   */
  forget(id: string): Promise<void> {
    this.used.delete(id);
    const { store } = this;
    return this.write(id, () =>
      store.deleteSession !== undefined
        ? store.deleteSession(id)
        : store.updateSessionMetadata(id, { [sessionKey]: undefined, [messagesKey]: undefined }),
    );
  }

  /** Writes the pending activity and stops the batch timer. The store stays open: its owner closes it. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flushActivity();
  }

  /** Runs a store write after the session's earlier ones; a store failure is a 500 `store-failed`. */
  private write(id: string, operation: () => Promise<unknown>): Promise<void> {
    const previous = this.writes.get(id) ?? Promise.resolve();
    const run = previous.then(async () => {
      try {
        await operation();
      } catch (error) {
        throw new HttpError({
          status: 500,
          errorCode: 'store-failed',
          message: `the session store failed: ${(error as Error).message}`,
        });
      }
    });
    const settled = run.catch(() => undefined);
    this.writes.set(id, settled);
    settled.then(() => {
      if (this.writes.get(id) === settled) this.writes.delete(id);
    });
    return run;
  }
}

/** Why a stored session cannot be restored, or `undefined` when it can. */
function storedProblem(metadata: JSONObject): string | undefined {
  const stored = metadata[sessionKey];
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored))
    return 'its entry is not an object';
  if (stored.version !== 1) return `its entry has version ${JSON.stringify(stored.version)}, not 1`;
  if (typeof stored.sequence !== 'number' || typeof stored.createdAt !== 'string') {
    return 'its entry has no sequence or creation time';
  }
  if (typeof stored.lastActiveAt !== 'string' || Number.isNaN(Date.parse(stored.lastActiveAt))) {
    return 'its entry has no time of last use';
  }
  if (!(servedFormatNames as readonly unknown[]).includes(stored.format)) {
    return `its format ${JSON.stringify(stored.format)} is not one the server reads`;
  }
  const applied = stored.appliedRequests;
  if (applied !== undefined && !(Array.isArray(applied) && applied.every((key) => typeof key === 'string'))) {
    return 'its appliedRequests is not a list of strings';
  }
  const messages = metadata[messagesKey];
  const nesting = findExcessiveNesting(messages);
  if (nesting !== undefined) return `its messages: ${describeExcessiveNesting(nesting)}`;
  const issues = findMessageIssues(messages);
  if (issues.length > 0) return `its messages are not valid: ${issues[0]!.message}`;
  return undefined;
}

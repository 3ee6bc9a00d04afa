import type { CompactionStore, SessionUsage } from '@compaction/core';
import { CliError, usageError } from '../errors/cli-error.js';
import { parseByteSize } from './parse-byte-size.js';
import { parseDuration } from './parse-duration.js';
import type { StoreLocation } from './session-store.js';

/** How long and how much a server keeps in its store (`--retention`, `--retention-size`). */
export interface RetentionSettings {
  /** Sessions last active longer ago than this are deleted, in milliseconds. */
  maxAgeMs?: number;
  /** Beyond this many bytes in all, the least recently active sessions are deleted until the rest fit. */
  maxBytes?: number;
  /**
   * Time between sweeps, in milliseconds. Default a tenth of `maxAgeMs`, from a second to ten minutes; a minute
   * for a size alone.
   */
  intervalMs?: number;
}

/** A session a sweep deletes, and why: past the age, or beyond the size. */
export interface ExpiredSession {
  sessionId: string;
  reason: 'age' | 'size';
}

/**
 * How often a sweep runs: a tenth of the age, so a session outstays it by at most a tenth, from a second to
 * ten minutes; every minute for a size alone.
 */
export function sweepEveryMs(retention: RetentionSettings): number {
  if (retention.intervalMs !== undefined) return retention.intervalMs;
  if (retention.maxAgeMs === undefined) return 60_000;
  return Math.max(1000, Math.min(600_000, Math.floor(retention.maxAgeMs / 10)));
}

/**
 * The sessions to delete, least recently active first: those last active before `now - maxAgeMs`, then more,
 * oldest first, until the rest hold at most `maxBytes`.
 */
export function sessionsPastRetention(
  usage: readonly SessionUsage[],
  retention: RetentionSettings,
  now: number,
): ExpiredSession[] {
  // A time a store could not give counts as the oldest.
  const time = (entry: SessionUsage) => Date.parse(entry.lastActivityAt) || 0;
  const oldestFirst = [...usage].sort((first, second) => time(first) - time(second));
  const cutoff = retention.maxAgeMs === undefined ? Number.NEGATIVE_INFINITY : now - retention.maxAgeMs;
  let total = usage.reduce((sum, entry) => sum + entry.bytes, 0);
  const expired: ExpiredSession[] = [];
  for (const entry of oldestFirst) {
    const old = time(entry) < cutoff;
    if (!old && (retention.maxBytes === undefined || total <= retention.maxBytes)) break;
    expired.push({ sessionId: entry.sessionId, reason: old ? 'age' : 'size' });
    total -= entry.bytes;
  }
  return expired;
}

/** What a sweep asks of the server that runs it. */
export interface RetentionTarget {
  /** Whether a session of the store is this server's to sweep (serve and the proxy may share one store). */
  owns(sessionId: string): boolean;
  /**
   * Deletes a session from the store and from the server's memory; resolves `false` when it is kept for now
   * (in use: the next sweep looks again).
   */
  remove(session: ExpiredSession): Promise<boolean>;
  /** Where a failed sweep is reported. */
  report(problem: string, error: unknown): void;
  /** What a sweep waits for first (a server restoring its sessions). */
  ready?: Promise<unknown>;
}

/**
 * Deletes whole sessions past a retention age or beyond a retention size, from the store and from the server,
 * every {@link sweepEveryMs}. Its timer does not hold the process open; {@link stop} ends it.
 */
export class RetentionSweep {
  private readonly timer: NodeJS.Timeout;
  private running: Promise<number> | undefined;
  private stopped = false;
  private readonly store: Required<Pick<CompactionStore, 'sessionUsage'>>;

  constructor(
    store: CompactionStore,
    private readonly retention: RetentionSettings,
    private readonly target: RetentionTarget,
  ) {
    if (store.sessionUsage === undefined || store.deleteSession === undefined) {
      throw new CliError({
        reason: 'config',
        message: 'the store cannot list or delete sessions, so it cannot keep a retention limit',
      });
    }
    this.store = store as Required<Pick<CompactionStore, 'sessionUsage'>>;
    this.timer = setInterval(() => {
      this.sweep().catch((error: unknown) => {
        // After a stop the store may be closing under the sweep: that is no failure to report.
        if (!this.stopped) this.target.report('retention sweep failed', error);
      });
    }, sweepEveryMs(retention));
    this.timer.unref();
  }

  /** Runs one sweep now (or joins the one under way); resolves with how many sessions it deleted. */
  sweep(now = Date.now()): Promise<number> {
    this.running ??= this.run(now).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Stops the sweeps; one under way deletes no more sessions, and its failures are not reported. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  private async run(now: number): Promise<number> {
    await this.target.ready;
    if (this.stopped) return 0;
    const usage = (await this.store.sessionUsage()).filter((entry) => this.target.owns(entry.sessionId));
    let deleted = 0;
    for (const session of sessionsPastRetention(usage, this.retention, now)) {
      if (this.stopped) break;
      if (await this.target.remove(session)) deleted++;
    }
    return deleted;
  }
}

/**
 * Reads `--retention` and `--retention-size`; `undefined` when neither is given. They need a store: without
 * one, nothing outlives the process.
 */
export function readRetentionFlags(
  values: { retention?: string | undefined; 'retention-size'?: string | undefined },
  store: StoreLocation,
): RetentionSettings | undefined {
  const age = values.retention;
  const size = values['retention-size'];
  if (age === undefined && size === undefined) return undefined;
  if (store.kind === 'memory') {
    throw usageError('--retention and --retention-size need a store: with --store memory nothing is kept');
  }
  return {
    ...(age === undefined ? {} : { maxAgeMs: parseDuration(age, '--retention') }),
    ...(size === undefined ? {} : { maxBytes: parseByteSize(size, '--retention-size') }),
  };
}

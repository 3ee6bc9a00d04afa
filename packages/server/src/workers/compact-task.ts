import type { CompactionSettings } from '../config/resolve-settings.js';
import type { RequestPolicy } from '../serve/request-policy.js';
import type { RecordedAnswer } from './replayed-exchange.js';
import type { StrategyAnswer, StrategyTask } from './strategy-task.js';
import type { WriteAnswer, WriteTask } from './write-task.js';

/** One `POST /v1/compact` for a compaction thread: the body as the client sent it, and its headers. */
export interface CompactTask {
  kind?: 'compact';
  body: Uint8Array;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * What a compaction thread does: a whole `POST /v1/compact`, one strategy run of a session or the proxy, or
 * the conversation of a session's answer.
 */
export type CompactionThreadTask = CompactTask | StrategyTask | WriteTask;

/** What a compaction thread answers: {@link RecordedAnswer}, {@link StrategyAnswer} or {@link WriteAnswer}. */
export type CompactionThreadAnswer = RecordedAnswer | StrategyAnswer | WriteAnswer;

/**
 * What a compaction thread builds its compactions from, as plain data: the same as the server's own, so a
 * request compacts the same on a thread as on the event loop.
 */
export interface CompactionWorkerData {
  settings: CompactionSettings;
  policy: RequestPolicy;
  /** The names registered in the server's registry: the thread registers the same, by name. */
  strategyNames: string[];
  /** Where the provider's API key is read. */
  environment?: Record<string, string | undefined>;
  maxBodyBytes: number;
  idleMs: number;
}

/**
 * The thread's module. Run from the sources (the package's own tests), it is the built one: a thread runs
 * plain JavaScript.
 */
export const compactionWorkerScript: URL = import.meta.url.endsWith('.ts')
  ? new URL('../../dist/workers/compaction-worker.js', import.meta.url)
  : new URL('./compaction-worker.js', import.meta.url);

import { availableParallelism } from 'node:os';
import {
  type CompactionThreadAnswer,
  type CompactionThreadTask,
  type CompactionWorkerData,
  compactionWorkerScript,
} from './compact-task.js';
import { WorkerPool } from './worker-pool.js';

/** Compaction threads by default: one less than the cores, so the event loop keeps one; at least 1. */
export function defaultCompactionThreads(maxConcurrent: number): number {
  return Math.max(1, Math.min(maxConcurrent, availableParallelism() - 1));
}

/**
 * The bounded pool of compaction threads that serve and the proxy share the shape of, or none when `threads` is 0
 * (everything on the event loop). Threads start on the first task, so a server that never gets a large request
 * starts none.
 */
export function createCompactionPool(
  threads: number,
  workerData: CompactionWorkerData,
): WorkerPool<CompactionThreadTask, CompactionThreadAnswer> | undefined {
  if (threads === 0) return undefined;
  return new WorkerPool<CompactionThreadTask, CompactionThreadAnswer>({
    script: compactionWorkerScript,
    size: threads,
    workerData: {
      ...workerData,
      // Copied into each thread: a plain object, never the caller's environment itself.
      ...(workerData.environment === undefined ? {} : { environment: { ...workerData.environment } }),
    },
  });
}

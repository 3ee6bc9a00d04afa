import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { threadId } from 'node:worker_threads';

/** Who holds a lock: enough to tell later, from another process, whether that holder is gone. */
export interface ProcessIdentity {
  host: string;
  pid: number;
  /** The thread inside the process, so two stores of one process on the same file are told apart. */
  thread: number;
  /**
   * When the process started, in clock ticks since boot (Linux's `/proc/<pid>/stat`), so a process id the
   * system has reused for a new process is not mistaken for the holder. Absent where `/proc` is not.
   */
  startTicks?: number;
}

/** Whether a lock's holder is still running: `unknown` when it cannot be checked from here. */
export type ProcessState = 'running' | 'gone' | 'unknown';

/** The identity of the calling process and thread. */
export function currentProcessIdentity(): ProcessIdentity {
  const startTicks = processStartTicks(process.pid);
  return {
    host: hostname(),
    pid: process.pid,
    thread: threadId,
    ...(startTicks === undefined ? {} : { startTicks }),
  };
}

/**
 * Whether the process of `identity` still runs. A process on another host cannot be checked. Where the
 * start time cannot be read, a live process id may belong to a newer process, so the answer is `unknown`.
 */
export function processState(identity: ProcessIdentity): ProcessState {
  if (identity.host !== hostname()) return 'unknown';
  try {
    process.kill(identity.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return 'gone';
  }
  // Unreadable (no /proc, or another user's process hidden from this one): the start time cannot be compared.
  const stat = readProcessStat(identity.pid);
  if (stat === undefined) return 'unknown';
  // A zombie has exited (its parent has not collected it yet); it holds nothing any more.
  if (stat.state === 'Z' || stat.state === 'X') return 'gone';
  if (identity.startTicks === undefined) return 'unknown';
  return stat.startTicks === identity.startTicks ? 'running' : 'gone';
}

function processStartTicks(pid: number): number | undefined {
  return readProcessStat(pid)?.startTicks;
}

function readProcessStat(pid: number): { state: string; startTicks: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or parentheses itself; the fields
  // after the last ')' start with the state (field 3); the start time is field 22.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const startTicks = Number(fields[19]);
  return Number.isFinite(startTicks) ? { state: fields[0] ?? '', startTicks } : undefined;
}

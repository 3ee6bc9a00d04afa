import { proxySessionPrefix } from '../proxy/prefix-memory.js';
import type { LiveSessions } from './live-sessions.js';
import { reportProblem } from './report-problem.js';
import { type RetentionSettings, RetentionSweep } from './retention-sweep.js';
import type { SessionPersistence } from './session-persistence.js';

/**
 * Sweeps the store of `compaction serve` for sessions past `retention`: each is deleted from the store whole
 * (messages, compaction records, archived text) and, when this server keeps it, ended as expired. Sessions
 * the proxy keeps in the same store are the proxy's to sweep.
 */
export function startServeRetention(
  retention: RetentionSettings,
  persistence: SessionPersistence,
  sessions: LiveSessions,
  ready: Promise<unknown>,
): RetentionSweep {
  return new RetentionSweep(persistence.store, retention, {
    owns: (sessionId) => !sessionId.startsWith(proxySessionPrefix),
    remove: async ({ sessionId, reason }) => {
      const live = sessions.find(sessionId);
      if (live === undefined) {
        await persistence.forget(sessionId);
        return true;
      }
      // A read marks a session used at once, but the store learns of it only with the next batch.
      const recentlyUsed = Date.now() - live.lastActiveAt < (retention.maxAgeMs ?? 0);
      if (live.busy || (reason === 'age' && recentlyUsed)) return false;
      await sessions.delete(sessionId, 'expired');
      return true;
    },
    report: reportProblem,
    ready,
  });
}

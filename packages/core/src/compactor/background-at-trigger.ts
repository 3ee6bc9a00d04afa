/**
 * What `prepare` does when the trigger fires with background compaction on:
 * - `use`: take the session's job, ended or still running (then wait for it), and use what it made;
 * - `pending`: send the history as it is, uncompacted: it fits, and a job is running on it;
 * - `start`: start a job on the history, then send it as it is (`pending`); in line if none can start;
 * - `in-line`: compact now, in line;
 * - `supersede`: drop the running job, whose result with the messages since would not do, and compact in line.
 */
export type TriggerAction = 'use' | 'pending' | 'start' | 'in-line' | 'supersede';

/** What {@link actionAtTrigger} decides from: sizes are of the whole request, its overhead included. */
export interface TriggerSituation {
  tokens: number;
  limit: number;
  target: number;
  /** Tokens the request carries besides its messages. */
  overheadTokens: number;
  /** The setting of the same name: block at the trigger even while the history fits. */
  waitAtTrigger: boolean;
  /** The session's job on a prefix of the history, if any: whether it ended, and what it aims for. */
  job?: { ended: boolean; target: number };
  /** Tokens of the messages after the job's input (0 without a job). */
  appendedTokens: number;
}

/**
 * Blocking at the trigger costs the caller the compaction's whole duration; a history between the trigger
 * and the limit still fits, so it is sent as it is (a few more tokens for a turn or two) until the job's
 * result is ready. Only a history over the limit, which must never be sent, blocks: on the running job when
 * its result with the messages since will fit and those messages alone do not cross the target (the rule for
 * compacting again), else on a compaction in line.
 */
export function actionAtTrigger(situation: TriggerSituation): TriggerAction {
  const { tokens, limit, target, overheadTokens, waitAtTrigger, job, appendedTokens } = situation;
  const sendAsItIs = tokens <= limit && !waitAtTrigger;
  if (job === undefined) return sendAsItIs ? 'start' : 'in-line';
  if (job.ended) return 'use';
  if (sendAsItIs) return 'pending';
  // With `waitAtTrigger` the history may fit: waiting for the job is what that setting asks for.
  if (tokens <= limit) return 'use';
  const appendedAlone = appendedTokens + overheadTokens;
  const expected = job.target + appendedTokens;
  return appendedAlone <= target && expected <= limit ? 'use' : 'supersede';
}

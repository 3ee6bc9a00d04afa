/**
 * An answer of the server with the values that differ from run to run (session and event ids, times,
 * durations) replaced by `…`, so two runs, or a run and its documentation, compare equal.
 */
export function steadyAnswer(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(steadyAnswer);
  if (typeof value !== 'object' || value === null) return value;
  const object = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, steadyAnswer(item)]));
  const varying = (keys: string[]) => {
    for (const key of keys) if (key in object) object[key] = '…';
  };
  // A session's description, a compaction event, a compaction report.
  if ('expiresAt' in object) varying(['id', 'createdAt', 'lastActiveAt', 'expiresAt']);
  if ('round' in object && 'startedAt' in object) varying(['id', 'sessionId', 'startedAt', 'durationMs']);
  if ('targetReached' in object) varying(['durationMs']);
  return object;
}

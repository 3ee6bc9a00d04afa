import { usageError } from '../errors/cli-error.js';

const unitMilliseconds: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses a duration flag: `500ms`, `10s`, `5m`, `1h`, `30d`; a bare number is seconds. Returns milliseconds. */
export function parseDuration(text: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/i.exec(text.trim());
  if (match === null)
    throw usageError(`${flag} must be a duration such as 500ms, 10s, 5m or 1h, got "${text}"`);
  const milliseconds = Math.round(Number(match[1]) * unitMilliseconds[(match[2] ?? 's').toLowerCase()]!);
  if (milliseconds < 1) throw usageError(`${flag} must be at least 1ms`);
  return milliseconds;
}

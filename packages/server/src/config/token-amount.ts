import { usageError } from '../errors/cli-error.js';

/**
 * Parses a token amount flag: `32000`, `32k`, `1.5m`, or a fraction such as `0.25` (a number in (0, 1]).
 * Returns the number as core budgets read it: at most 1 is a fraction, above 1 is tokens.
 */
export function parseTokenAmount(text: string, flag: string): number {
  const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*([kKmM]?)\s*$/.exec(text.replace(/_/g, ''));
  if (match === null) {
    throw usageError(`${flag} must be a token count (32000, 32k, 1m) or a fraction (0.25), got "${text}"`);
  }
  const multiplier = match[2]?.toLowerCase() === 'k' ? 1000 : match[2]?.toLowerCase() === 'm' ? 1_000_000 : 1;
  const value = Number(match[1]) * multiplier;
  if (!(value > 0)) throw usageError(`${flag} must be greater than 0, got "${text}"`);
  if (multiplier === 1 && value > 1 && !Number.isInteger(value)) {
    throw usageError(`${flag} must be a whole number of tokens or a fraction in (0, 1], got "${text}"`);
  }
  return multiplier === 1 ? value : Math.round(value);
}

/** Parses a positive whole token count (`--context-window 200k`). */
export function parseTokenCount(text: string, flag: string): number {
  const value = parseTokenAmount(text, flag);
  if (value <= 1) throw usageError(`${flag} must be a token count such as 200000 or 200k, got "${text}"`);
  return value;
}

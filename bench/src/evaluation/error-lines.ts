import { normalizeText } from './probe.js';

/**
 * A line that reports an error: it starts with an exception name and a colon (`TypeError: ...`, also after
 * pytest's `E` prefix), or with `error:`, `ERROR`, `fatal:` or `FAILED`, or it is a shell's "No such file or
 * directory", "command not found" or "Permission denied". Anchored at the start of the line so that source
 * code that merely mentions an error class (`class ValidationError(Exception):`) is not taken for one.
 */
const errorLine =
  /^(?:E\s+)?(?:[A-Za-z_][\w.]*(?:Error|Exception|Exit):|[Ee]rror:|ERROR\b|fatal:|FAILED\b)|No such file or directory|command not found|Permission denied/;

/** Longest error probe, in characters: enough to identify the error, short enough to survive a trail. */
export const errorLineCharacters = 160;

/** The error lines of a tool output, normalized, cut to {@link errorLineCharacters}, without duplicates. */
export function errorLinesOf(output: string): string[] {
  const lines: string[] = [];
  for (const raw of output.split('\n')) {
    const line = normalizeText(raw);
    if (line.length < 6 || !errorLine.test(line)) continue;
    // "Traceback (most recent call last):" says nothing about which error it was.
    if (line.startsWith('Traceback')) continue;
    lines.push(line.slice(0, errorLineCharacters).trim());
  }
  return [...new Set(lines)];
}

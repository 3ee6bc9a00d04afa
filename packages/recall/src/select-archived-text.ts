import type { ArchivedItem } from '@compaction/core';
import type { RecallRequest } from './recall-request.js';

/** The part of an archived text one recall answers with, and whether the size bound cut it. */
export interface ArchivedTextSelection {
  text: string;
  truncated: boolean;
}

/**
 * Answers `request` from `item` in at most `maximumCharacters` of archived text. The whole item, when asked
 * for whole and it fits, comes back exactly as archived; otherwise a first line says what part this is and a
 * last one, when the bound cut it, how to ask for the rest.
 */
export function selectArchivedText(
  item: ArchivedItem,
  request: RecallRequest,
  maximumCharacters: number,
): ArchivedTextSelection {
  const lines = item.text.split('\n');
  const first = Math.min(request.fromLine ?? 1, lines.length);
  const last = Math.min(request.toLine ?? lines.length, lines.length);
  const whole = request.pattern === undefined && first === 1 && last === lines.length;
  if (whole && item.text.length <= maximumCharacters) return { text: item.text, truncated: false };
  const name = `recall "${item.handle}" (${item.label})`;
  const numbered = lines.slice(first - 1, last).map((text, offset) => ({ number: first + offset, text }));
  if (request.pattern !== undefined) {
    const needle = request.pattern.toLowerCase();
    const matching = numbered.filter((line) => line.text.toLowerCase().includes(needle));
    if (matching.length === 0) {
      return {
        text: `[${name}: no line of ${lines.length} contains "${request.pattern}"]`,
        truncated: false,
      };
    }
    const shown = fitLines(
      matching.map((line) => `${line.number}: ${line.text}`),
      maximumCharacters,
    );
    const header = `[${name}: ${matching.length} matching lines of ${lines.length}]`;
    const cut = `[cut: the first ${shown.count} matching lines shown; narrow the pattern or give fromLine]`;
    return withHeader(header, shown, cut);
  }
  const shown = fitLines(
    numbered.map((line) => line.text),
    maximumCharacters,
  );
  const shownLast = first + Math.max(shown.count, 1) - 1;
  const header = `[${name}: lines ${first}-${last} of ${lines.length}]`;
  const cut = `[cut: lines ${first}-${shownLast} shown; call recall with fromLine ${shownLast + 1} for more]`;
  return withHeader(header, shown, cut);
}

interface FittedLines {
  text: string;
  /** Whole lines taken (0 when even the first was too long and only its start is in `text`). */
  count: number;
  truncated: boolean;
}

/** The whole lines that fit in `maximumCharacters`, or the start of the first when none does. */
function fitLines(lines: readonly string[], maximumCharacters: number): FittedLines {
  let length = 0;
  let count = 0;
  for (const line of lines) {
    const added = line.length + (count > 0 ? 1 : 0);
    if (length + added > maximumCharacters) break;
    length += added;
    count++;
  }
  if (count === lines.length) return { text: lines.join('\n'), count, truncated: false };
  if (count === 0) return { text: (lines[0] ?? '').slice(0, maximumCharacters), count: 0, truncated: true };
  return { text: lines.slice(0, count).join('\n'), count, truncated: true };
}

function withHeader(header: string, shown: FittedLines, cut: string): ArchivedTextSelection {
  const parts = shown.truncated ? [header, shown.text, cut] : [header, shown.text];
  return { text: parts.join('\n'), truncated: shown.truncated };
}

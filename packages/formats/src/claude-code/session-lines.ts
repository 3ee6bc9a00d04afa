import { checkNesting } from '../check-nesting.js';
import { isRecord } from '../conversation-format.js';
import { inputError } from '../format-error.js';
import { parseJsonWithLocation } from '../json-location.js';

/** One line of a Claude Code session log, as read. */
export interface SessionLine {
  /** 1-based line number in the file. */
  number: number;
  /** The line as it was, without its `\n` (a `\r` of a CRLF file stays). */
  text: string;
  /** The parsed event; `undefined` for a blank line. */
  entry: Record<string, unknown> | undefined;
  uuid: string | undefined;
  /** The `parentUuid` field: a uuid, `null` for a root, `undefined` when the line has none. */
  parentUuid: string | null | undefined;
}

/** A parsed session log: its lines, whether the file ended with a line break, and whether its lines end in CRLF. */
export interface SessionLog {
  lines: SessionLine[];
  endsWithNewline: boolean;
  crlf: boolean;
}

/**
 * Splits a session log into lines and parses each as JSON. A line that is not JSON, or not an object, or
 * nested too deeply is reported with its number (a `FormatError` of reason `input`).
 */
export function parseSessionLog(text: string): SessionLog {
  const texts = text.split('\n');
  const endsWithNewline = texts.at(-1) === '';
  if (endsWithNewline) texts.pop();
  const lines = texts.map((line, index): SessionLine => {
    const number = index + 1;
    if (line.trim() === '')
      return { number, text: line, entry: undefined, uuid: undefined, parentUuid: undefined };
    const parsed = parseJsonWithLocation(line);
    if (!parsed.ok) {
      throw inputError(`invalid JSON on line ${number}, column ${parsed.location.column}: ${parsed.reason}`);
    }
    if (!isRecord(parsed.value)) throw inputError(`line ${number} is not a JSON object`);
    checkNesting(parsed.value, '', `line ${number}`);
    const entry = parsed.value;
    const parentUuid = entry.parentUuid;
    return {
      number,
      text: line,
      entry,
      uuid: typeof entry.uuid === 'string' ? entry.uuid : undefined,
      parentUuid: typeof parentUuid === 'string' || parentUuid === null ? parentUuid : undefined,
    };
  });
  if (lines.every((line) => line.entry === undefined)) throw inputError('the session log has no events');
  return { lines, endsWithNewline, crlf: texts[0]?.endsWith('\r') === true };
}

/** Whether a line carries a user or assistant message (or the system message of older logs). */
export function isMessageLine(line: SessionLine): boolean {
  const entry = line.entry;
  if (entry === undefined || !isRecord(entry.message)) return false;
  if (entry.type === 'user' || entry.type === 'assistant') return true;
  return entry.type === 'system' && entry.message.role === 'system';
}

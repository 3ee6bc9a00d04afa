import { readFile } from 'node:fs/promises';
import { checkMessageNesting, checkNesting } from './check-nesting.js';
import { looksLikeJsonLines } from './claude-code/claude-code-format.js';
import type { Conversation, FormatName } from './conversation-format.js';
import { detectFormatOf } from './detect-format.js';
import { FormatError, inputError } from './format-error.js';
import { formats } from './formats.js';
import { parseJsonWithLocation } from './json-location.js';

/** Reads all of a stream, such as a command's standard input. */
export async function readStdin(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/**
 * Reads a file, or `stdin` (a command's standard input) for `-` or no path. A missing path with a terminal as
 * `stdin` is a {@link FormatError} of reason `usage`; a file that cannot be read is one of reason `input`.
 */
export async function readInputBytes(
  path: string | undefined,
  stdin: NodeJS.ReadableStream & { isTTY?: boolean },
): Promise<{ bytes: Buffer; source: string }> {
  if (path === undefined || path === '-') {
    // Waiting on a terminal for a pasted conversation is never what was meant.
    if (path === undefined && stdin.isTTY) {
      throw new FormatError({
        reason: 'usage',
        message: 'no input: give a conversation file, or pipe one in (use - to read a terminal)',
      });
    }
    return { bytes: await readStdin(stdin), source: 'standard input' };
  }
  try {
    return { bytes: await readFile(path), source: path };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : (error as Error).message;
    throw inputError(`cannot read ${path}: ${reason}`, error);
  }
}

/** Decodes bytes as UTF-8 text, rejecting empty and binary input with the offset of the first bad byte. */
export function decodeText(bytes: Buffer, source: string): string {
  if (bytes.length === 0 || bytes.toString('utf8').trim() === '') throw inputError(`${source} is empty`);
  const nul = bytes.indexOf(0);
  if (nul !== -1) throw inputError(`${source} is binary data, not text (a zero byte at offset ${nul})`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw inputError(`${source} is binary data, not UTF-8 text`);
  }
}

/**
 * Parses an input text into a conversation: as the given format, or the detected one. Every failure is a
 * {@link FormatError} of reason `input` whose message says what is wrong and where; input nested deeper than
 * the limit of `json-depth.ts` is refused before anything recursive touches it.
 */
export async function parseConversation(
  text: string,
  source: string,
  format?: FormatName,
): Promise<Conversation> {
  const prefix = (message: string) => `${source}: ${message}`;
  try {
    const conversation = await readFormat(text, format);
    checkMessageNesting(conversation.messages);
    return conversation;
  } catch (error) {
    if (FormatError.isInstance(error) && error.reason === 'input') {
      error.message = prefix(error.message);
    }
    throw error;
  }
}

async function readFormat(text: string, format: FormatName | undefined): Promise<Conversation> {
  if (format === 'claude-code') return await formats['claude-code'].read(text);
  const parsed = parseJsonWithLocation(text);
  if (!parsed.ok) {
    if (format === undefined && looksLikeJsonLines(text)) return await formats['claude-code'].read(text);
    const { line, column } = parsed.location;
    throw inputError(`invalid JSON at line ${line}, column ${column}: ${parsed.reason}`);
  }
  return await readJsonConversation(parsed.value, format);
}

/**
 * Reads a parsed JSON conversation as the given format, or the detected one (the rules of `detect-format.ts`).
 * Input nested deeper than the limit is refused before anything recursive touches it. `choose` says how the
 * caller picks a format when clues conflict (the CLI's `--from`, the server's `"format"`).
 */
export async function readJsonConversation(
  value: unknown,
  format?: FormatName,
  choose = 'pass --from to choose',
): Promise<Conversation> {
  checkNesting(value);
  if (format !== undefined) return await formats[format].read(value);
  const detection = detectFormatOf(value);
  if (detection.conflict) throw inputError(`cannot tell the format: ${detection.reason}; ${choose}`);
  // Undetected input is read as core: an empty list is a valid core conversation, and for anything else
  // core's validation says exactly which field is wrong.
  return await formats[detection.format ?? 'core'].read(value);
}

/** Reads and parses a conversation from a file, or from `stdin` for `-` or no path. */
export async function readConversation(
  path: string | undefined,
  stdin: NodeJS.ReadableStream & { isTTY?: boolean },
  format?: FormatName,
): Promise<Conversation> {
  const { bytes, source } = await readInputBytes(path, stdin);
  return parseConversation(decodeText(bytes, source), source, format);
}

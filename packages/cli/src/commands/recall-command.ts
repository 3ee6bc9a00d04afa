import { createRecallTool, type RecallRequest } from '@compaction/recall';
import { CliError, exitCodes } from '@compaction/server';
import { defaultSessionId, openArchiveStore } from '../archive/archive-store.js';
import type { CliIO } from '../cli-io.js';
import { recallHelp } from '../help.js';
import { writeOutput } from '../output/write-output.js';
import { helpFlagOptions, parseFlags, printedHelp, valueFlags } from '../parse-flags.js';

/**
 * `compaction recall --store PATH [--session ID] HANDLE`: prints what a compaction archived under a handle,
 * exactly, or the lines of it asked for. Exit 0 printed, 1 not found, 2 a wrong call (as grep).
 */
export async function recallCommand(args: string[], io: CliIO): Promise<number> {
  try {
    return await recall(args, io);
  } catch (error) {
    if (CliError.isInstance(error) && error.reason === 'usage') {
      throw new CliError({ reason: 'usage', message: error.message, exitCode: exitCodes.badInput });
    }
    throw error;
  }
}

async function recall(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags('recall', args, {
    ...helpFlagOptions,
    ...valueFlags('store', 'session', 'from-line', 'to-line', 'pattern'),
  });
  if (printedHelp(values, recallHelp, io)) return 0;
  if (positionals.length !== 1 || positionals[0] === '') {
    throw recallUsage(
      positionals.length === 0
        ? 'give the handle to recall'
        : `one handle at a time, not ${positionals.length}`,
    );
  }
  const handle = positionals[0]!;
  const request: RecallRequest = { handle };
  const fromLine = lineNumber(values['from-line'], '--from-line');
  const toLine = lineNumber(values['to-line'], '--to-line');
  if (fromLine !== undefined) request.fromLine = fromLine;
  if (toLine !== undefined) request.toLine = toLine;
  if (values.pattern !== undefined) request.pattern = values.pattern;
  const sessionId = values.session ?? defaultSessionId;
  const { store, name } = await openArchiveStore('recall', values.store, io.cwd, { mustExist: true });
  try {
    // Asked for whole, the text as archived; asked for part, what the recall tool answers a model, unbounded.
    const whole = fromLine === undefined && toLine === undefined && values.pattern === undefined;
    const tool = createRecallTool({ store, sessionId, maximumCharacters: Number.MAX_SAFE_INTEGER });
    const item = await tool.lookup(handle);
    if (item === undefined) {
      const sessions = await store.sessions();
      throw new CliError({ reason: 'not-found', message: notFound(handle, sessionId, name, sessions) });
    }
    if (whole) {
      await writeOutput(io, undefined, item.text);
      return exitCodes.success;
    }
    const answer = await tool.execute(request);
    if (answer.status === 'invalid')
      throw recallUsage(answer.text.replace(/^recall: /, '').replace(/\.$/, ''));
    await writeOutput(io, undefined, answer.text);
    return exitCodes.success;
  } finally {
    await store.close();
  }
}

/** A whole number from 1 given to `flag`, or undefined when the flag is absent. */
function lineNumber(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) < 1) {
    throw recallUsage(`${flag} must be a line number from 1, not "${value}"`);
  }
  return Number(value);
}

function recallUsage(message: string): CliError {
  return new CliError({
    reason: 'usage',
    message: `recall: ${message} (see compaction recall --help)`,
    exitCode: exitCodes.badInput,
  });
}

/** Why nothing was found, with the sessions the store has when the one asked for has no record. */
function notFound(handle: string, sessionId: string, store: string, sessions: readonly string[]): string {
  const where = `session "${sessionId}" of ${store}`;
  if (sessions.includes(sessionId)) return `no archived text "${handle}" in ${where}`;
  const known = sessions.slice(0, 5).map((id) => `"${id}"`);
  const more = sessions.length > known.length ? `, and ${sessions.length - known.length} more` : '';
  const listed = known.length === 0 ? 'it has none' : `it has ${known.join(', ')}${more}`;
  return `no archived text "${handle}": no ${where} (${listed}; choose one with --session)`;
}

import type { JSONObject } from '@compaction/core';
import type { FileState } from './languages/summary-language.js';

export type { FileState };

/**
 * What a tool call did to a file: read it, edited it, created (or overwrote) it, deleted it; `named` means a
 * command named it without saying how.
 */
export type FileAction = FileState;

/** One file of the trail, with the state the agent last left it in. */
export interface FileRecord extends JSONObject {
  /** The path as the tool call or command named it. */
  path: string;
  /** The state the agent last left the file in. */
  state: FileState;
}

/** One command of the trail (its first line), with how its latest run ended. */
export interface CommandRecord extends JSONObject {
  command: string;
  /** Exit status of the latest run, when the result said; `error` when it only said it failed. */
  status: number | 'error' | 'ok' | 'unknown';
  /** How many times it ran. */
  runs: number;
}

/**
 * A deterministic record, built from tool calls and results without the LLM, of the files read, created,
 * edited and deleted (each with the state it was last left in), the commands run with their exit status and the errors seen. It is carried from one summary to
 * the next in the summary message's metadata, so it survives any number of rounds; detail that no longer
 * fits its share of the budget is folded into counts, oldest first. Items are in order of their latest use.
 */
export interface ArtifactTrail extends JSONObject {
  files: FileRecord[];
  commands: CommandRecord[];
  errors: string[];
  /** How many of each were folded away in this or earlier rounds. */
  folded: { files: number; commands: number; errors: number };
}

/** A trail with nothing in it. */
export function emptyArtifactTrail(): ArtifactTrail {
  return { files: [], commands: [], errors: [], folded: { files: 0, commands: 0, errors: 0 } };
}

/** Adds a file action, moving the file to the newest position with the state the action leaves it in. */
export function recordFile(trail: ArtifactTrail, path: string, action: FileAction): void {
  const index = trail.files.findIndex((file) => file.path === path);
  const existing = index === -1 ? undefined : trail.files.splice(index, 1)[0]!;
  trail.files.push({ path, state: nextState(existing?.state, action) });
}

/**
 * The state a file is in after an action. Reading or naming a file changes nothing the agent did to it. A
 * file the agent created stays `created` when edited (it is still new); a file that existed and is written
 * whole is `edited`; a deleted file written again is `created`. The states compose: the state of two spans
 * in a row is the second span's state applied to the first's, which is how trails of rounds are merged.
 */
export function nextState(previous: FileState | undefined, action: FileAction): FileState {
  if (previous === undefined || previous === 'named') return action;
  switch (action) {
    case 'read':
    case 'named':
      return previous;
    case 'created':
      return previous === 'created' || previous === 'deleted' ? 'created' : 'edited';
    case 'edited':
      return previous === 'created' ? 'created' : 'edited';
    case 'deleted':
      return 'deleted';
  }
}

/** Adds a command run, moving it to the newest position and counting repeated runs. */
export function recordCommand(trail: ArtifactTrail, command: string, status: CommandRecord['status']): void {
  const index = trail.commands.findIndex((record) => record.command === command);
  const runs = index === -1 ? 1 : trail.commands.splice(index, 1)[0]!.runs + 1;
  trail.commands.push({ command, status, runs });
}

/** Adds an error line, moving it to the newest position. */
export function recordError(trail: ArtifactTrail, error: string): void {
  const index = trail.errors.indexOf(error);
  if (index !== -1) trail.errors.splice(index, 1);
  trail.errors.push(error);
}

/** Merges an older trail with a newer one: the newer one's items count as more recent. Inputs are unchanged. */
export function mergeArtifactTrails(older: ArtifactTrail, newer: ArtifactTrail): ArtifactTrail {
  const merged = cloneTrail(older);
  for (const file of newer.files) recordFile(merged, file.path, file.state);
  for (const command of newer.commands) {
    recordCommand(merged, command.command, command.status);
    merged.commands.at(-1)!.runs += command.runs - 1;
  }
  for (const error of newer.errors) recordError(merged, error);
  merged.folded = {
    files: older.folded.files + newer.folded.files,
    commands: older.folded.commands + newer.folded.commands,
    errors: older.folded.errors + newer.folded.errors,
  };
  return merged;
}

/** A deep copy of a trail. */
export function cloneTrail(trail: ArtifactTrail): ArtifactTrail {
  return structuredClone(trail);
}

/** Reads a trail carried in metadata, or `undefined` when the value is not one. */
export function parseArtifactTrail(value: unknown): ArtifactTrail | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Partial<ArtifactTrail>;
  if (!Array.isArray(record.files) || !Array.isArray(record.commands) || !Array.isArray(record.errors)) {
    return undefined;
  }
  const trail = emptyArtifactTrail();
  for (const file of record.files) {
    if (typeof file?.path !== 'string') continue;
    const state = stateOfRecord(file);
    if (state !== undefined) recordFile(trail, file.path, state);
  }
  for (const command of record.commands) {
    if (typeof command?.command !== 'string') continue;
    const status =
      typeof command.status === 'number' || ['error', 'ok', 'unknown'].includes(command.status as string)
        ? command.status
        : 'unknown';
    trail.commands.push({
      command: command.command,
      status,
      runs: typeof command.runs === 'number' && command.runs > 0 ? command.runs : 1,
    });
  }
  for (const error of record.errors) if (typeof error === 'string') trail.errors.push(error);
  const folded = record.folded;
  if (typeof folded === 'object' && folded !== null) {
    trail.folded = {
      files: count(folded.files),
      commands: count(folded.commands),
      errors: count(folded.errors),
    };
  }
  return trail;
}

const fileStates: readonly FileState[] = ['created', 'edited', 'deleted', 'read', 'named'];

/** What trails written before files had one state called each action, strongest first. */
const earlierActions: ReadonlyArray<[string, FileState]> = [
  ['created', 'created'],
  ['modified', 'edited'],
  ['read', 'read'],
  ['touched', 'named'],
];

/** A record's state; a record of an earlier trail lists its actions instead, and the strongest stands. */
function stateOfRecord(record: Record<string, unknown>): FileState | undefined {
  if (fileStates.includes(record.state as FileState)) return record.state as FileState;
  const actions = Array.isArray(record.actions) ? record.actions : [];
  return earlierActions.find(([action]) => actions.includes(action))?.[1];
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

import type { JSONValue, ToolCallPart } from '@compaction/core';
import { commandOf, pathsInCommand, pathsOfCall } from './tool-call-facts.js';

/** What a tool call did to a file. */
export type FileAction = 'read' | 'edited' | 'created' | 'deleted';

/** One file a tool call read or changed. */
export interface FileActionFact {
  path: string;
  action: FileAction;
}

const readTools = /^(read|view|read_file|cat|open_file|view_file)$/i;
const editTools = /^(edit|multiedit|notebookedit|replace|edit_file|apply_diff|str_replace)$/i;
const writeTools = /^(write|write_file|create_file|create)$/i;
const deleteTools = /^(delete_file|remove_file|delete)$/i;
const editorTools = /^(str_replace_editor|str_replace_based_edit_tool)$/i;
const patchTools = /^(apply_patch|patch)$/i;

/** Editor commands (SWE-agent's and OpenHands' file editor) by what they do. */
const editorActions: Record<string, FileAction> = {
  view: 'read',
  create: 'created',
  str_replace: 'edited',
  insert: 'edited',
  undo_edit: 'edited',
};

/** Shell commands that print a file. */
const readCommands = new Set(['cat', 'nl', 'head', 'tail', 'less', 'more', 'bat']);

/**
 * The files a tool call read or changed, in order: file tools by name (Claude Code's, OpenHands', Codex's
 * patches), and shell commands by what each segment runs: `rm` deletes, `sed -i`, `perl -pi`, `tee` and output
 * redirections write, `mv` deletes the source and creates the target, and `cat`, `nl`, `head`, `tail` (or
 * `sed -n`) of one file read it. The probe reads `created` and `edited` alike (the file was written), so a
 * shell write is `edited` whether or not the file existed.
 */
export function fileActionsOfCall(call: ToolCallPart): FileActionFact[] {
  const command = commandOf(call);
  if (command !== undefined) return shellFileActions(command);
  const input = asRecord(call.input);
  if (patchTools.test(call.toolName)) return patchFileActions(call.input);
  const paths = pathsOfCall(call);
  const action = editorTools.test(call.toolName)
    ? editorActions[String(input?.command ?? '')]
    : readTools.test(call.toolName)
      ? 'read'
      : editTools.test(call.toolName)
        ? 'edited'
        : writeTools.test(call.toolName)
          ? 'created'
          : deleteTools.test(call.toolName)
            ? 'deleted'
            : undefined;
  return action === undefined ? [] : paths.map((path) => ({ path, action }));
}

/** What a shell command does to files, segment by segment (split at `&&`, `||`, `;`, `|` and new lines). */
export function shellFileActions(command: string): FileActionFact[] {
  const facts: FileActionFact[] = [];
  const add = (paths: readonly string[], action: FileAction) => {
    for (const path of paths) facts.push({ path, action });
  };
  for (const segment of shellSegments(command)) {
    const unquoted = segment.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, ' ');
    const words = unquoted.trim().split(/\s+/);
    const program = words.find((word) => !/^\w+=/.test(word) && word !== 'sudo') ?? '';
    // Redirection targets are written whatever the program is.
    const targets = [...unquoted.matchAll(/(?:^|[^\d&])>>?\s*([^\s;&|<>()]+)/g)]
      .map((match) => match[1]!)
      .filter((target) => target !== '/dev/null' && !target.startsWith('&'));
    const paths = pathsInCommand(segment.replace(/(?:^|[^\d&])>>?\s*[^\s;&|<>()]+/g, ' '));
    if (program === 'rm') add(paths, 'deleted');
    else if (program === 'mv' && paths.length === 2) {
      add([paths[0]!], 'deleted');
      add([paths[1]!], 'created');
    } else if (
      (program === 'sed' && /\s-i\b/.test(segment)) ||
      (program === 'perl' && /\s-p?i/.test(segment))
    )
      add(paths, 'edited');
    else if (program === 'tee') add(paths, 'edited');
    else if (
      (readCommands.has(program) || (program === 'sed' && /\s-n\b/.test(segment))) &&
      paths.length === 1
    )
      add(paths, 'read');
    add(targets, 'edited');
  }
  return facts;
}

/** The segments of a command, here-document bodies left out. */
function shellSegments(command: string): string[] {
  const lines: string[] = [];
  let hereDocument: string | undefined;
  for (const line of command.split('\n')) {
    if (hereDocument !== undefined) {
      if (line.trim() === hereDocument) hereDocument = undefined;
      continue;
    }
    hereDocument = /<<-?\s*['"]?([A-Za-z_][\w-]*)['"]?/.exec(line)?.[1];
    lines.push(line.replace(/<<-?\s*['"]?[A-Za-z_][\w-]*['"]?/, ' '));
  }
  return lines
    .join('\n')
    .replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, (quoted) => (/[|;&\n]/.test(quoted) ? "''" : quoted))
    .split(/&&|\|\||[;|\n]/);
}

/** The files of a Codex-style patch (`*** Add File:`, `*** Update File:`, `*** Delete File:`). */
function patchFileActions(input: JSONValue): FileActionFact[] {
  const record = asRecord(input);
  const text = typeof input === 'string' ? input : String(record?.patch ?? record?.input ?? '');
  const actions: Record<string, FileAction> = { Add: 'created', Update: 'edited', Delete: 'deleted' };
  return [...text.matchAll(/^\*\*\* (Add|Update|Delete) File: (.+)$/gm)].map((match) => ({
    path: match[2]!.trim(),
    action: actions[match[1]!]!,
  }));
}

function asRecord(value: JSONValue): Record<string, JSONValue | undefined> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}

import type { JSONObject, JSONValue, Message, ToolCallPart, ToolResultPart } from '@compaction/core';
import { toolCallsOf } from '@compaction/core';
import {
  type ArtifactTrail,
  type CommandRecord,
  emptyArtifactTrail,
  type FileAction,
  recordCommand,
  recordError,
  recordFile,
} from './artifact-trail.js';
import { pathsOfCommand } from './command-paths.js';
import { exitStatusOf, isFailure } from './exit-status.js';
import { pathsOfPatch } from './patch-paths.js';
import { firstLine } from './shorten-text.js';

/** Settings of {@link extractArtifacts}. */
export interface ExtractArtifactsSettings {
  /** Characters of a command's first line kept. */
  commandCharacters: number;
  /** Characters of an error line kept. Default 160. */
  errorCharacters?: number;
}

/** Input fields that name a file or folder, in the shapes of common agent tools. */
const pathFields = [
  'path',
  'file_path',
  'filePath',
  'filename',
  'file_name',
  'fileName',
  'file',
  'notebook_path',
  'target_file',
  'source_path',
  'destination_path',
  'old_path',
  'new_path',
  'dir',
  'directory',
  'paths',
  'files',
];
/** Input fields that carry a shell command. */
const commandFields = ['command', 'cmd', 'script', 'bash_command', 'commandLine', 'shell_command'];
/** Sub-commands of file-editor tools (`str_replace_editor`), which are file actions, not shell commands. */
const editorActions: Readonly<Record<string, FileAction>> = {
  view: 'read',
  read: 'read',
  open: 'read',
  create: 'created',
  write: 'created',
  str_replace: 'edited',
  replace: 'edited',
  insert: 'edited',
  undo_edit: 'edited',
  edit: 'edited',
  append: 'edited',
  delete: 'deleted',
};
const shellTools = /bash|shell|terminal|exec|run|command|cmd|sh$/i;

/**
 * Builds the artifact trail of a span of messages from its tool calls and results, without the LLM: the
 * files read, edited, created and deleted, each with the state it was last left in (from path fields such as
 * `path`, `file_path` or `filename` and the tool's name, from editor sub-commands, from `apply_patch`
 * patches, and from the paths shell commands name), the commands run (`command`, `cmd`... fields, and
 * fenced bash blocks of agents that write commands as text) with their exit status, and the errors seen.
 */
export function extractArtifacts(
  messages: readonly Message[],
  settings: ExtractArtifactsSettings,
): ArtifactTrail {
  const trail = emptyArtifactTrail();
  const results = new Map<string, ToolResultPart>();
  for (const message of messages) {
    if (message.role === 'tool') for (const part of message.content) results.set(part.toolCallId, part);
  }
  const context: CallContext = { trail, settings, openFile: undefined };
  messages.forEach((message, index) => {
    const calls = toolCallsOf(message);
    for (const call of calls) recordCall(context, call, results.get(call.toolCallId));
    if (message.role === 'assistant' && calls.length === 0) {
      recordTextCommands(context, message, messages[index + 1]);
    }
  });
  return trail;
}

interface CallContext {
  trail: ArtifactTrail;
  settings: ExtractArtifactsSettings;
  /** The file an editor tool last opened, for tools such as SWE-agent's `edit` that name none. */
  openFile: string | undefined;
}

function recordCall(context: CallContext, call: ToolCallPart, result: ToolResultPart | undefined): void {
  const { trail } = context;
  const output = result === undefined ? '' : outputText(result);
  const input = call.input;
  const fields = typeof input === 'object' && input !== null && !Array.isArray(input) ? input : undefined;
  const paths = fields === undefined ? [] : pathFields.flatMap((name) => stringsOf(fields[name]));
  let command = fields === undefined ? undefined : commandOf(fields);
  if (command === undefined && typeof input === 'string' && shellTools.test(call.toolName)) command = input;

  const trimmed = command?.trim();
  // `{ command: 'view', path }` is an editor action; `{ command: 'ls' }` to a shell tool is a command.
  const isEditorVerb =
    trimmed !== undefined &&
    Object.hasOwn(editorActions, trimmed) &&
    (paths.length > 0 || !shellTools.test(call.toolName));
  const editorAction = isEditorVerb ? editorActions[trimmed] : undefined;
  const isShellCommand = trimmed !== undefined && trimmed.length > 0 && !isEditorVerb;

  const action = editorAction ?? actionOfTool(call.toolName);
  for (const path of paths) recordFile(trail, path, action);
  if (paths.length === 0 && /^(edit|insert|replace)/i.test(call.toolName) && context.openFile !== undefined) {
    recordFile(trail, context.openFile, 'edited');
  }
  if (paths.length > 0 && action !== 'named') context.openFile = paths[0];

  const status = result === undefined ? 'unknown' : exitStatusOf(output, result.isError);
  if (isShellCommand && command !== undefined) {
    recordShellCommand(context, command, status);
  }
  // A patch's own lines say what it does to each file (Codex's `apply_patch`, as a tool or in a command).
  const texts = [command, ...Object.values(fields ?? {})].filter((value) => typeof value === 'string');
  const patch = typeof input === 'string' ? input : texts.join('\n');
  if (!isFailure(status)) {
    for (const found of pathsOfPatch(patch)) recordFile(trail, found.path, found.action);
  }
  if (result !== undefined && isFailure(status)) {
    const error = errorLine(output, context.settings.errorCharacters ?? 160);
    if (error.length > 0) recordError(trail, error);
  }
}

function recordShellCommand(context: CallContext, command: string, status: CommandRecord['status']): void {
  const line = firstLine(command, context.settings.commandCharacters);
  if (line.length === 0) return;
  recordCommand(context.trail, line, status);
  for (const found of pathsOfCommand(command)) recordFile(context.trail, found.path, found.action);
}

/** Commands an agent wrote as fenced bash blocks in its text; the status comes from the next message. */
function recordTextCommands(context: CallContext, message: Message, next: Message | undefined): void {
  const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  const blocks = [...text.matchAll(/```(?:bash|sh|shell|console)\s*\n([\s\S]*?)```/g)];
  if (blocks.length === 0) return;
  const reply =
    next?.role === 'user'
      ? next.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')
      : '';
  const status = reply.length > 0 ? exitStatusOf(reply, false) : 'unknown';
  // Only a reported return code says how the command ended; a user reply without one says nothing.
  const known = /returncode|exit/i.test(reply) ? status : 'unknown';
  for (const block of blocks) recordShellCommand(context, block[1]!, known);
  if (isFailure(known)) {
    const error = errorLine(reply, context.settings.errorCharacters ?? 160);
    if (error.length > 0) recordError(context.trail, error);
  }
}

function commandOf(fields: JSONObject): string | undefined {
  for (const name of commandFields) {
    const value = fields[name];
    if (typeof value === 'string') return value;
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
      // `["bash", "-lc", "npm test"]`: the script is what matters.
      const items = value as string[];
      const script = items.findIndex((item) => item === '-c' || item === '-lc');
      return script !== -1 && items[script + 1] !== undefined ? items[script + 1] : items.join(' ');
    }
  }
  return undefined;
}

function stringsOf(value: JSONValue | undefined): string[] {
  if (typeof value === 'string')
    return value.trim().length > 0 && !value.includes('\n') ? [value.trim()] : [];
  if (Array.isArray(value)) return value.flatMap((item) => (typeof item === 'string' ? stringsOf(item) : []));
  return [];
}

function actionOfTool(toolName: string): FileAction {
  const name = toolName.toLowerCase();
  if (/delete|remove|unlink/.test(name)) return 'deleted';
  if (/edit|replace|patch|insert|update|apply|append|modify|undo/.test(name)) return 'edited';
  if (/write|create|new_file|save/.test(name)) return 'created';
  if (/read|view|open|cat|get|list|ls|glob|grep|search|find|show/.test(name)) return 'read';
  return 'named';
}

function outputText(result: ToolResultPart): string {
  if (typeof result.output === 'string') return result.output;
  return result.output.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** The most telling line of a failed result: an `...Error:` line (a traceback's last), or the first error-ish line. */
function errorLine(output: string, characters: number): string {
  const lines = output
    .replace(/<\/?(returncode|output)>/g, '\n')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !/^-?\d+$/.test(line));
  const named = lines.findLast((line) => /^[\w.]*(Error|Exception|Failure)\b:?/.test(line));
  const mentioned = lines.find((line) =>
    /error|failed|fatal|not found|no such|denied|cannot|traceback/i.test(line),
  );
  return firstLine(named ?? mentioned ?? lines[0] ?? '', characters);
}

import type { JSONValue, ToolCallPart } from '@compaction/core';

/** Tool names that run a shell command given in `command` (or `cmd`). */
const shellTools = /^(bash|sh|shell|terminal|execute_bash|run_command|run_shell_command|exec|local_shell)$/i;

/** Input fields that name one file or folder. */
const pathFields = ['path', 'file_path', 'filePath', 'filename', 'file_name', 'notebook_path', 'target_file'];

/** Input fields that name several. */
const pathListFields = ['paths', 'file_paths', 'files'];

/** File extensions that make a bare word (no slash) a file name rather than, say, a Python module. */
const fileExtensions = new Set(
  (
    'py pyi js mjs cjs ts tsx jsx json md rst txt toml yaml yml cfg ini conf sh bash zsh rs go c h cc cpp hpp ' +
    'java kt rb php cs swift html htm css scss sql lock xml csv tsv patch diff log ipynb env gradle mk'
  ).split(' '),
);

/** The shell command a tool call runs, or undefined when it is not a shell tool. */
export function commandOf(call: ToolCallPart): string | undefined {
  if (!shellTools.test(call.toolName)) return undefined;
  const input = call.input;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return undefined;
  const command = input.command ?? input.cmd;
  if (typeof command === 'string') return command;
  // `["bash", "-lc", "..."]` style: the last element is the script.
  if (Array.isArray(command) && command.every((item) => typeof item === 'string')) {
    return (command as string[]).at(-1);
  }
  return undefined;
}

/** The file paths a tool call touches: its path fields, and the paths named on its shell command line. */
export function pathsOfCall(call: ToolCallPart): string[] {
  const paths: string[] = [];
  const input = call.input;
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
    for (const field of pathFields) addPath(input[field], paths);
    for (const field of pathListFields) {
      const list = input[field];
      if (Array.isArray(list)) for (const item of list) addPath(item, paths);
    }
  }
  const command = commandOf(call);
  if (command !== undefined) paths.push(...pathsInCommand(command));
  return [...new Set(paths)];
}

function addPath(value: JSONValue | undefined, into: string[]) {
  if (typeof value === 'string' && value.trim().length > 0 && !value.includes('\n')) into.push(value.trim());
}

/**
 * The file paths named in a shell command: words with a slash, or with a known file extension. Quoted strings
 * (scripts, search patterns) and here-document bodies are skipped, as are flags, URLs and `/dev/null`.
 */
export function pathsInCommand(command: string): string[] {
  const paths: string[] = [];
  let hereDocument: string | undefined;
  for (const line of command.split('\n')) {
    if (hereDocument !== undefined) {
      if (line.trim() === hereDocument) hereDocument = undefined;
      continue;
    }
    const opened = /<<-?\s*['"]?([A-Za-z_][\w-]*)['"]?/.exec(line);
    const unquoted = line.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, ' ');
    for (const word of unquoted.split(/[\s;|&<>()`]+/)) {
      if (isPathWord(word)) paths.push(word);
    }
    if (opened !== null) hereDocument = opened[1];
  }
  return [...new Set(paths)];
}

function isPathWord(word: string): boolean {
  if (word.length < 3 || word.startsWith('-') || word.includes('://') || word.includes('=')) return false;
  if (!/^[\w.\-/~+@]+$/.test(word) || !/[A-Za-z]/.test(word)) return false;
  if (word === '/dev/null' || word.startsWith('/proc/')) return false;
  if (word.includes('/')) return /[A-Za-z0-9]{2}/.test(word);
  const extension = /\.([A-Za-z0-9]+)$/.exec(word)?.[1];
  return extension !== undefined && fileExtensions.has(extension.toLowerCase()) && !/^\d/.test(word);
}

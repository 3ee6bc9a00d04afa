import type { FileAction } from './artifact-trail.js';

const fileExtensions =
  'py|pyi|js|mjs|cjs|ts|tsx|jsx|json|jsonl|md|mdx|txt|rst|cfg|conf|toml|yaml|yml|ini|sh|bash|zsh|c|h|cc|cpp|hpp|go|rs|java|kt|rb|php|html|css|scss|lock|xml|csv|sql|ipynb|diff|patch|log|env|vue|svelte|swift|scala|lua|r|pl|gradle|proto|graphql|dockerfile|mk|tex|bib';
const namedFile = new RegExp(`^[\\w.\\-/~@+]*[\\w\\-]\\.(?:${fileExtensions})$`, 'i');
const slashedPath = /^(?:~|\.{1,2})?\/?[\w.\-@+]+(?:\/[\w.\-@+]+)+\/?$/;
const absolutePath = /^\/[\w.\-@+]+\/?$/;

const readingVerbs = new Set([
  'cat',
  'head',
  'tail',
  'less',
  'more',
  'nl',
  'grep',
  'rg',
  'ag',
  'wc',
  'awk',
  'diff',
  'ls',
  'find',
  'stat',
  'file',
  'view',
  'open',
]);
const editingVerbs = new Set(['patch', 'tee', 'truncate', 'chmod', 'ed']);
const creatingVerbs = new Set(['touch', 'mkdir']);
const deletingVerbs = new Set(['rm', 'rmdir', 'unlink', 'shred']);
/** Verbs whose last path is where the others go: created there; the others moved away or copied from. */
const movingVerbs: Readonly<Record<string, FileAction>> = { mv: 'deleted', cp: 'read' };

/** A path named by a shell command, and what the command seems to do to it. */
export interface CommandPath {
  path: string;
  action: FileAction;
}

/**
 * Finds the file paths a shell command names, without running anything: unquoted words that look like
 * paths (`src/app.py`, `./build.sh`, `/testbed/setup.cfg`), with the action read from the verb and from
 * redirections (`> file` creates or overwrites, `>> file` and `sed -i ... file` edit, `cat file` and
 * `sed -n ... file` read, `rm file` deletes, `mv a b` deletes `a` and creates `b`, `cp a b` reads `a` and
 * creates `b`). Quoted words (sed scripts, Python snippets) and here-document bodies are skipped, so code is
 * not taken for paths.
 */
export function pathsOfCommand(command: string): CommandPath[] {
  const found: CommandPath[] = [];
  for (const segment of segmentsOf(command)) found.push(...pathsOfSegment(segment));
  return found;
}

/** The paths one simple command names, with what it does to each. */
function pathsOfSegment(words: readonly Word[]): CommandPath[] {
  const found: CommandPath[] = [];
  const verb = words.find((word) => !word.quoted && !/^\w+=/.test(word.text))?.text ?? '';
  const inPlace = (verb === 'sed' || verb === 'perl') && words.some((word) => /^-\w*i/.test(word.text));
  let redirect: FileAction | undefined;
  const verbPaths: CommandPath[] = [];
  for (const word of words) {
    if (word.text === '>' || word.text === '>>' || word.text === '&>') {
      // `>` writes the file whole (a new file, or an existing one edited); `>>` adds to it.
      redirect = word.text === '>>' ? 'edited' : 'created';
      continue;
    }
    const text = word.text.replace(/^[<>]+/, '').replace(/[,:;]+$/, '');
    const isPath =
      !word.quoted &&
      !word.text.startsWith('-') &&
      !word.text.includes('://') &&
      text.length >= 3 &&
      (namedFile.test(text) || slashedPath.test(text) || absolutePath.test(text));
    if (isPath && redirect !== undefined) found.push({ path: text, action: redirect });
    else if (isPath) {
      const item = { path: text, action: verbAction(verb, inPlace) };
      found.push(item);
      verbPaths.push(item);
    }
    redirect = undefined;
  }
  const moved = Object.hasOwn(movingVerbs, verb) ? movingVerbs[verb] : undefined;
  if (moved !== undefined && verbPaths.length >= 2) {
    verbPaths.forEach((item, index) => {
      item.action = index === verbPaths.length - 1 ? 'created' : moved;
    });
  }
  return found;
}

/** What a command's verb does to the paths it names. */
function verbAction(verb: string, inPlace: boolean): FileAction {
  if (inPlace || editingVerbs.has(verb)) return 'edited';
  if (deletingVerbs.has(verb)) return 'deleted';
  if (creatingVerbs.has(verb)) return 'created';
  if (readingVerbs.has(verb) || verb === 'sed') return 'read';
  return 'named';
}

interface Word {
  text: string;
  quoted: boolean;
}

/** Splits a command into simple commands (at `&&`, `||`, `;`, `|` and newlines), skipping here-document bodies. */
function segmentsOf(command: string): Word[][] {
  const segments: Word[][] = [];
  let words: Word[] = [];
  let current = '';
  let quoted = false;
  let quote: string | undefined;
  let hereDocument: string | undefined;
  const endWord = () => {
    if (current.length > 0) words.push({ text: current, quoted });
    current = '';
    quoted = false;
  };
  const endSegment = () => {
    endWord();
    if (words.length > 0) segments.push(words);
    words = [];
  };
  const lines = command.split('\n');
  for (const line of lines) {
    if (hereDocument !== undefined) {
      if (line.trim() === hereDocument) hereDocument = undefined;
      continue;
    }
    const marker = /<<-?\s*['"]?(\w+)['"]?/.exec(line);
    const visible =
      marker === null ? line : line.slice(0, marker.index) + line.slice(marker.index + marker[0].length);
    for (let index = 0; index < visible.length; index++) {
      const character = visible[index]!;
      if (quote !== undefined) {
        if (character === quote) quote = undefined;
        else current += character;
        continue;
      }
      if (character === '"' || character === "'") {
        quote = character;
        quoted = true;
        continue;
      }
      if (character === ' ' || character === '\t') {
        endWord();
      } else if (
        character === ';' ||
        character === '|' ||
        character === '&' ||
        character === '(' ||
        character === ')'
      ) {
        // `&>` is a redirection, not a separator.
        if (character === '&' && visible[index + 1] === '>') {
          endWord();
          current = '&>';
          index++;
          endWord();
          continue;
        }
        endSegment();
      } else if (character === '>' && visible[index + 1] === '&') {
        // `2>&1` duplicates a stream; it names no file.
        endWord();
        index++;
        while (index + 1 < visible.length && /\d|-/.test(visible[index + 1]!)) index++;
      } else if (character === '>') {
        endWord();
        current = visible[index + 1] === '>' ? '>>' : '>';
        if (current === '>>') index++;
        endWord();
      } else {
        current += character;
      }
    }
    if (quote === undefined) endSegment();
    else current += '\n';
    if (marker !== null) hereDocument = marker[1];
  }
  endSegment();
  return segments;
}

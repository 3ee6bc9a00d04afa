import { type ArtifactTrail, emptyArtifactTrail, type FileState, recordFile } from './artifact-trail.js';
import type { SummaryLanguage } from './languages/summary-language.js';
import { summaryLanguages } from './languages/summary-languages.js';

/** What a summary's text holds besides its first line, read back when its metadata is gone. */
export interface RenderedSummary {
  /** The text between the first line and the trail (the summarizer's text), or `undefined` when none. */
  body: string | undefined;
  /** The trail as rendered, or `undefined` when the text has none. */
  trail: ArtifactTrail | undefined;
}

const languages: readonly SummaryLanguage[] = Object.values(summaryLanguages);
const headings = new Set(languages.map((language) => language.trail.heading));
const commandLabels = new Set(languages.map((language) => language.trail.commands));
const errorLabels = new Set(languages.map((language) => language.trail.errors));
/** What opens each file line, in every language, longest first; `Modified: ` is how earlier trails said `edited`. */
const fileLabels: ReadonlyArray<readonly [string, FileState]> = [
  ...languages.flatMap((language) =>
    (Object.entries(language.trail.states) as [FileState, string][]).map(
      ([state, label]) => [label, state] as const,
    ),
  ),
  ['Modified: ', 'edited'] as const,
].sort((left, right) => right[0].length - left[0].length);

/**
 * Reads a summary's text as `renderArtifactTrail` wrote it, in any shipped language, for a summary read back
 * from a provider's format (which has no room for the metadata that carries the trail): the files under their
 * states, the commands with their status and runs, the errors and the folded counts. Files are read state by
 * state, so their order of latest use across states is approximated; a path holding `, ` is read as two.
 */
export function readRenderedSummary(text: string): RenderedSummary {
  // The first line is the header; the trail, when there is one, is last (a body may quote its heading).
  const lines = text.split('\n').slice(1);
  const at = lines.findLastIndex((line) => headings.has(line));
  const body = (at === -1 ? lines : lines.slice(0, at)).join('\n').trim();
  return {
    body: body.length === 0 ? undefined : body,
    trail: at === -1 ? undefined : readTrailLines(lines.slice(at + 1)),
  };
}

function readTrailLines(lines: readonly string[]): ArtifactTrail {
  const trail = emptyArtifactTrail();
  let section: 'files' | 'commands' | 'errors' = 'files';
  for (const line of lines) {
    if (line.length === 0) continue;
    const folded = languages.find((language) => line.startsWith(language.trail.folded));
    if (commandLabels.has(line)) section = 'commands';
    else if (errorLabels.has(line)) section = 'errors';
    else if (folded !== undefined) readFolded(trail, line, folded);
    else if (section === 'files') readFileLine(trail, line);
    else if (section === 'commands') trail.commands.push(readCommandLine(line));
    else if (line.startsWith('- ')) trail.errors.push(line.slice(2));
  }
  return trail;
}

function readFileLine(trail: ArtifactTrail, line: string): void {
  const label = fileLabels.find(([prefix]) => line.startsWith(prefix));
  if (label === undefined) return;
  const [prefix, state] = label;
  for (const path of line.slice(prefix.length).split(', ')) {
    if (path.length > 0) recordFile(trail, path, state);
  }
}

/**
 * A command line: its text, then ` [exit N]`, ` [exit ?]` or ` [failed]` when it did not succeed, then ` xN`.
 * The renderer writes ` xN` only for 2 runs or more, so ` x0`, ` x1` or ` x01` at the end is the command's own
 * text (`make x1` ran once), not a count.
 */
function readCommandLine(line: string): ArtifactTrail['commands'][number] {
  const match = /^(.*?)(?: \[exit (\d+|\?)\]| \[(failed)\])?(?: x([2-9]|[1-9]\d+))?$/.exec(line)!;
  const [, command = line, exit, failed, runs] = match;
  const status =
    failed !== undefined ? 'error' : exit === '?' ? 'unknown' : exit !== undefined ? Number(exit) : 0;
  return { command, status, runs: runs === undefined ? 1 : Number(runs) };
}

/** The folded counts, in the units of the language that wrote the line. */
function readFolded(trail: ArtifactTrail, line: string, language: SummaryLanguage): void {
  const rest = line.slice(language.trail.folded.length);
  for (const key of ['files', 'commands', 'errors'] as const) {
    // The plural first, so that `4 files` is read once, not also as `4 file`.
    const units = [...new Set(language.trail.foldedUnits[key])].sort(
      (left, right) => right.length - left.length,
    );
    const pattern = new RegExp(
      units.map((unit) => escapeRegExp(unit).replace('\\{n\\}', '(\\d+)')).join('|'),
      'g',
    );
    for (const match of rest.matchAll(pattern)) {
      trail.folded[key] += Number(match.slice(1).find((count) => count !== undefined));
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

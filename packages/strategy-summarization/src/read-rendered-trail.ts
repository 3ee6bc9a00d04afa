import { type ArtifactTrail, emptyArtifactTrail, recordFile } from './artifact-trail.js';
import { artifactTrailHeading, commandsLabel, fileGroups } from './render-artifact-trail.js';

/** What a summary's text holds besides its first line, read back when its metadata is gone. */
export interface RenderedSummary {
  /** The text between the first line and the trail (the summarizer's text), or `undefined` when none. */
  body: string | undefined;
  /** The trail as rendered, or `undefined` when the text has none. */
  trail: ArtifactTrail | undefined;
}

/**
 * Reads a summary's text as `renderArtifactTrail` wrote it, for a summary read back from a provider's format
 * (which has no room for the metadata that carries the trail): the files under their groups, the commands
 * with their status and runs, the errors and the folded counts. Files are read group by group, so their order
 * of latest use across groups is approximated; a path holding `, ` is read as two.
 */
export function readRenderedSummary(text: string): RenderedSummary {
  // The first line is the header; the trail, when there is one, is last (a body may quote its heading).
  const lines = text.split('\n').slice(1);
  const at = lines.lastIndexOf(artifactTrailHeading);
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
    if (line === commandsLabel) section = 'commands';
    else if (line === 'Errors:') section = 'errors';
    else if (line.startsWith('Oldest detail folded: ')) readFolded(trail, line);
    else if (section === 'files') readFileLine(trail, line);
    else if (section === 'commands') trail.commands.push(readCommandLine(line));
    else if (line.startsWith('- ')) trail.errors.push(line.slice(2));
  }
  return trail;
}

function readFileLine(trail: ArtifactTrail, line: string): void {
  for (const group of fileGroups) {
    const prefix = `${group.label}: `;
    if (!line.startsWith(prefix)) continue;
    for (const path of line.slice(prefix.length).split(', ')) {
      if (path.length > 0) recordFile(trail, path, group.action);
    }
    return;
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

function readFolded(trail: ArtifactTrail, line: string): void {
  for (const [, count, kind] of line.matchAll(/(\d+) (file|command|error)s?\b/g)) {
    trail.folded[`${kind as 'file' | 'command' | 'error'}s`] += Number(count);
  }
}

import { type ArtifactTrail, type CommandRecord, cloneTrail, type FileAction } from './artifact-trail.js';

/** The heading the artifact trail carries in summary texts. */
export const artifactTrailHeading = '## Artifact trail';

/** Stated once, so that a command that succeeded (most of them) costs no more than its own text. */
export const commandsLabel = 'Commands, oldest first (succeeded unless marked):';

/** File groups in the order they are rendered; a file goes under the strongest thing done to it. */
export const fileGroups: ReadonlyArray<{ action: FileAction; label: string }> = [
  { action: 'created', label: 'Created' },
  { action: 'modified', label: 'Modified' },
  { action: 'read', label: 'Read' },
  { action: 'touched', label: 'Named' },
];

/**
 * Renders a trail as dense Markdown, because at small targets every token of it competes with the paths and
 * commands it exists to keep: one line per file group (`Created:`, `Modified:`, `Read:`, `Named:`, each file
 * under the strongest thing done to it), then one line per command (its first line as recorded, marked only
 * when it did not succeed, `xN` when it ran N times), then the errors, then the counts of what was folded
 * (those not zero). A file only read or named whose path a listed command shows as a whole word is not
 * listed again. Everything is oldest first.
 */
export function renderArtifactTrail(trail: ArtifactTrail): string {
  const lines = [artifactTrailHeading];
  // Paths a listed command names as a whole word are not listed again.
  const named = wordsOf(trail.commands.map((command) => command.command));
  for (const group of fileGroups) {
    const paths = trail.files
      .filter((file) => strongestAction(file.actions) === group.action)
      .map((file) => file.path)
      .filter(
        (path) =>
          group.action === 'created' || group.action === 'modified' || !named.has(withoutTrailingSlash(path)),
      );
    if (paths.length > 0) lines.push(`${group.label}: ${paths.join(', ')}`);
  }
  if (trail.commands.length > 0) {
    lines.push(commandsLabel);
    for (const command of trail.commands) lines.push(commandLine(command));
  }
  if (trail.errors.length > 0) {
    lines.push('Errors:');
    for (const error of trail.errors) lines.push(`- ${error}`);
  }
  const folded = (['files', 'commands', 'errors'] as const)
    .filter((key) => trail.folded[key] > 0)
    .map((key) => `${trail.folded[key]} ${trail.folded[key] === 1 ? key.slice(0, -1) : key}`);
  if (folded.length > 0) lines.push(`Oldest detail folded: ${folded.join(', ')}.`);
  return lines.join('\n');
}

/**
 * Folds a trail until its rendering fits `tokens`: older errors first, then older commands, then older
 * files, each counted in `folded`. Folds as little as possible: a binary search over how many items go, in
 * that order, with one rendering per step. Returns the folded trail (the input is unchanged) and its text.
 */
export function fitArtifactTrail(
  trail: ArtifactTrail,
  tokens: number,
  countText: (text: string) => number,
): { trail: ArtifactTrail; text: string } {
  const whole = cloneTrail(trail);
  const wholeText = renderArtifactTrail(whole);
  if (countText(wholeText) <= tokens) return { trail: whole, text: wholeText };
  const total = trail.errors.length + trail.commands.length + trail.files.length;
  // `fits` holds for `high` (or nothing fits at all) and never for `low`. Folding one more item almost
  // always shortens the rendering; where it does not (the folded line appears, a file hidden behind a
  // folded command is listed again) the search still ends on a count whose rendering was checked.
  let low = 0;
  let high = total;
  let best = foldOldest(trail, total);
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    const candidate = foldOldest(trail, middle);
    if (countText(candidate.text) <= tokens) {
      high = middle;
      best = candidate;
    } else {
      low = middle;
    }
  }
  return best;
}

/** The trail with its `count` oldest items folded: errors first, then commands, then files. */
function foldOldest(trail: ArtifactTrail, count: number): { trail: ArtifactTrail; text: string } {
  const folded = cloneTrail(trail);
  let left = count;
  for (const key of ['errors', 'commands', 'files'] as const) {
    const items = folded[key] as unknown[];
    const removed = Math.min(left, items.length);
    items.splice(0, removed);
    folded.folded[key] += removed;
    left -= removed;
  }
  return { trail: folded, text: renderArtifactTrail(folded) };
}

function strongestAction(actions: readonly FileAction[]): FileAction {
  return fileGroups.find((group) => actions.includes(group.action))?.action ?? 'touched';
}

/** The words of the command lines, split where a path ends (space, quote, `=`, `:`, brackets, operators). */
function wordsOf(commands: readonly string[]): Set<string> {
  const words = new Set<string>();
  for (const command of commands) {
    for (const word of command.split(/[\s'"=:()<>|;&,]+/)) {
      if (word.length > 0) words.add(withoutTrailingSlash(word));
    }
  }
  return words;
}

function withoutTrailingSlash(path: string): string {
  return path.replace(/(.)\/+$/, '$1');
}

/** How a command's line is marked: not at all when it succeeded (exit 0, or no failure reported). */
function statusMark(status: CommandRecord['status']): string {
  if (status === 0 || status === 'ok') return '';
  if (typeof status === 'number') return ` [exit ${status}]`;
  return status === 'unknown' ? ' [exit ?]' : ' [failed]';
}

function commandLine(command: CommandRecord): string {
  return `${command.command}${statusMark(command.status)}${command.runs > 1 ? ` x${command.runs}` : ''}`;
}

import { type ArtifactTrail, type CommandRecord, cloneTrail, type FileState } from './artifact-trail.js';
import { english } from './languages/english.js';
import type { SummaryLanguage } from './languages/summary-language.js';

/** The heading the artifact trail carries in English summary texts. */
export const artifactTrailHeading = english.trail.heading;

/** File states in the order their lines are rendered: what the agent changed first, then what it read. */
export const fileStateOrder: readonly FileState[] = ['created', 'edited', 'deleted', 'read', 'named'];

/**
 * Renders a trail as dense Markdown in a language, because at small targets every token of it competes with
 * the paths and commands it exists to keep: one line per file state (in English `Created:`, `Edited:`,
 * `Deleted:`, `Read:`, `Named:`, each file under the state it was last left in), then one line per command
 * (its first line as recorded, marked only when it did not succeed, `xN` when it ran N times), then the
 * errors, then the counts of what was folded (those not zero). A file only read or named whose path a listed
 * command shows as a whole word is not listed again. Everything is oldest first. Paths, commands, errors and
 * the marks of commands are the same in every language; the headings and labels are the language's.
 */
export function renderArtifactTrail(trail: ArtifactTrail, language: SummaryLanguage = english): string {
  const texts = language.trail;
  const lines = [texts.heading];
  // Paths a listed command names as a whole word are not listed again.
  const named = wordsOf(trail.commands.map((command) => command.command));
  for (const state of fileStateOrder) {
    const paths = trail.files
      .filter((file) => file.state === state)
      .map((file) => file.path)
      .filter((path) => (state !== 'read' && state !== 'named') || !named.has(withoutTrailingSlash(path)));
    if (paths.length > 0) lines.push(`${texts.states[state]}${paths.join(', ')}`);
  }
  if (trail.commands.length > 0) {
    lines.push(texts.commands);
    for (const command of trail.commands) lines.push(commandLine(command));
  }
  if (trail.errors.length > 0) {
    lines.push(texts.errors);
    for (const error of trail.errors) lines.push(`- ${error}`);
  }
  const folded = (['files', 'commands', 'errors'] as const)
    .filter((key) => trail.folded[key] > 0)
    .map((key) => {
      const [one, many] = texts.foldedUnits[key];
      return (trail.folded[key] === 1 ? one : many).replace('{n}', String(trail.folded[key]));
    });
  if (folded.length > 0) lines.push(`${texts.folded}${folded.join(', ')}.`);
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
  language: SummaryLanguage = english,
): { trail: ArtifactTrail; text: string } {
  const whole = cloneTrail(trail);
  const wholeText = renderArtifactTrail(whole, language);
  if (countText(wholeText) <= tokens) return { trail: whole, text: wholeText };
  const total = trail.errors.length + trail.commands.length + trail.files.length;
  // `fits` holds for `high` (or nothing fits at all) and never for `low`. Folding one more item almost
  // always shortens the rendering; where it does not (the folded line appears, a file hidden behind a
  // folded command is listed again) the search still ends on a count whose rendering was checked.
  let low = 0;
  let high = total;
  let best = foldOldest(trail, total, language);
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    const candidate = foldOldest(trail, middle, language);
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
function foldOldest(
  trail: ArtifactTrail,
  count: number,
  language: SummaryLanguage,
): { trail: ArtifactTrail; text: string } {
  const folded = cloneTrail(trail);
  let left = count;
  for (const key of ['errors', 'commands', 'files'] as const) {
    const items = folded[key] as unknown[];
    const removed = Math.min(left, items.length);
    items.splice(0, removed);
    folded.folded[key] += removed;
    left -= removed;
  }
  return { trail: folded, text: renderArtifactTrail(folded, language) };
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

/** How a command's line is marked (the same in every language, so any reader reads it back): not at all when it succeeded (exit 0, or no failure reported). */
function statusMark(status: CommandRecord['status']): string {
  if (status === 0 || status === 'ok') return '';
  if (typeof status === 'number') return ` [exit ${status}]`;
  return status === 'unknown' ? ' [exit ?]' : ' [failed]';
}

function commandLine(command: CommandRecord): string {
  return `${command.command}${statusMark(command.status)}${command.runs > 1 ? ` x${command.runs}` : ''}`;
}

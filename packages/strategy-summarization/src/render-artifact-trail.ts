import { type ArtifactTrail, type CommandRecord, cloneTrail } from './artifact-trail.js';

/** The heading the artifact trail carries in summary texts. */
export const artifactTrailHeading = '## Artifact trail';

/** Renders a trail as Markdown: files grouped by what was done to them, commands with exit status, errors. */
export function renderArtifactTrail(trail: ArtifactTrail): string {
  const lines = [artifactTrailHeading, '(recorded from the tool calls, not written by the summarizer)'];
  const groups = new Map<string, string[]>();
  for (const file of trail.files) {
    const key = file.actions.join(', ');
    groups.set(key, [...(groups.get(key) ?? []), file.path]);
  }
  if (groups.size === 0) lines.push('Files: none');
  for (const [actions, paths] of groups) lines.push(`Files ${actions}: ${paths.join(', ')}`);
  lines.push(
    trail.commands.length === 0 ? 'Commands: none' : 'Commands ([exit status] first line, oldest first):',
  );
  for (const command of trail.commands) lines.push(commandLine(command));
  if (trail.errors.length > 0) {
    lines.push('Errors seen (oldest first):');
    for (const error of trail.errors) lines.push(`- ${error}`);
  }
  const { files, commands, errors } = trail.folded;
  if (files + commands + errors > 0) {
    lines.push(`Older detail folded to save space: ${files} files, ${commands} commands, ${errors} errors.`);
  }
  return lines.join('\n');
}

/**
 * Folds a trail until its rendering fits `tokens`: older errors first, then older commands, then older
 * files, each counted in `folded`. Returns the folded trail (the input is unchanged) and its text.
 */
export function fitArtifactTrail(
  trail: ArtifactTrail,
  tokens: number,
  countText: (text: string) => number,
): { trail: ArtifactTrail; text: string } {
  const fitted = cloneTrail(trail);
  let text = renderArtifactTrail(fitted);
  let total = countText(text);
  if (total <= tokens) return { trail: fitted, text };
  // Fold by estimated item costs first (one rendering per pass instead of one per item), then check.
  while (total > tokens) {
    let excess = total - tokens;
    const lists = [
      { items: fitted.errors, key: 'errors' as const, cost: (item: string) => countText(`- ${item}`) + 1 },
      {
        items: fitted.commands,
        key: 'commands' as const,
        cost: (item: CommandRecord) => countText(commandLine(item)) + 1,
      },
      {
        items: fitted.files,
        key: 'files' as const,
        cost: (item: { path: string }) => countText(item.path) + 1,
      },
    ];
    let folded = 0;
    for (const list of lists) {
      while (excess > 0 && list.items.length > 0) {
        const item = list.items.shift()!;
        excess -= (list.cost as (value: typeof item) => number)(item);
        fitted.folded[list.key]++;
        folded++;
      }
    }
    text = renderArtifactTrail(fitted);
    total = countText(text);
    if (folded === 0) break;
  }
  return { trail: fitted, text };
}

function commandLine(command: CommandRecord): string {
  const status = command.status === 'unknown' ? '?' : String(command.status);
  return `[${status}] ${command.command}${command.runs > 1 ? ` (${command.runs} runs)` : ''}`;
}

import { fraction, percent, table } from './format.js';
import { planPhases } from './plan-calls.js';
import { type TranslationLanguage, taskTranslations } from './task-translations.js';
import type { Tally, WorkingStateRow, WorkingStateSummary } from './working-state.js';

const languageNames: Record<TranslationLanguage, string> = { zh: 'Chinese', es: 'Spanish' };

function share(tally: Tally | undefined): string {
  if (tally === undefined || tally.total === 0) return '–';
  return `${percent(tally.kept / tally.total)} (${fraction(tally.kept, tally.total)})`;
}

function featuresCell(row: WorkingStateRow): string {
  if (row.features) return 'with (defaults)';
  return row.languageSwitched
    ? "without (`planTools: false`, `language: 'en'`)"
    : 'without (`planTools: false`)';
}

/** The table of the working-state probes: each policy with and without the features. */
export function workingStateTable(summary: WorkingStateSummary): string {
  return table(
    [
      'policy',
      'features',
      'compactions',
      'plan retention',
      'file-state retention',
      ...summary.languages.map((code) => `language match (${languageNames[code]})`),
    ],
    summary.rows.map((row) => [
      row.policy,
      featuresCell(row),
      String(row.compactions),
      share(row.plan),
      share(row.fileState),
      ...summary.languages.map((code) => share(row.language[code])),
    ]),
  );
}

/** The section of `results/evaluation.md`: what was measured, how, and the table. */
export function renderWorkingState(summary: WorkingStateSummary): string {
  const translated =
    summary.translated === undefined
      ? 'The transcript the translation table is written for was not evaluated: no language probe ran.'
      : `**Language match**: on \`${summary.translated}\` with its user turns translated by script into ` +
        `${summary.languages.map((code) => languageNames[code]).join(' and ')} (\`task-translations.ts\`: the ` +
        `${taskTranslations.length} lines of prose of the PR description and the task instructions, translated once by ` +
        'hand and applied line by line; code, tags, commands and paths stay as they are; the agent’s turns and the ' +
        'tools’ output are not the user’s and stay in English), whether each compaction’s summary is in the user’s ' +
        'language: every level-2 heading (sections, artifact trail) is that language’s, and the prose outside the ' +
        'artifact trail, where there is enough of it, is detected as that language (by script, and for Latin ' +
        'script by common words). The scripted summarizer answers with the sections the request asks for, in their ' +
        'language, and no detail of the conversation; a summary that is an artifact trail alone is judged by its heading.';
  return [
    '## Working state after a compaction',
    '',
    `What the agent works from after a compaction, at ${summary.window} on ${summary.transcripts.map((name) => `\`${name}\``).join(', ')}. ` +
      'The shared transcripts hold no plan or todo call, so one is written in by script (`plan-calls.ts`): the ' +
      `agent’s turns are cut into ${planPhases} phases, and at the start of each a Claude Code \`TodoWrite\` call ` +
      `(with its result) lists ${planPhases} items, \`Phase N of ${planPhases}: \` and the agent’s first words in ` +
      'phase N, the earlier ones `completed`, this one `in_progress`, the later ones `pending`. Each policy is replayed ' +
      'through a Compactor (`working-state-replay.ts`: the simulation’s loop, one call before each assistant ' +
      'message on the transcript’s clock, caps at ingestion, with the Compactor’s `planTools` setting, which the ' +
      'simulation does not take), and every compaction is probed:',
    '',
    '- **Plan retention**: the items of the latest plan before the compaction whose text the context holds with ' +
      'its status after it (an older plan left in the context, at other statuses, does not count).',
    '- **File-state retention**: every file read or changed before the compaction, by its last state: for a read, ' +
      'the longest line of that read’s output that the task does not hold; for an edit, a creation or a deletion, a ' +
      'call in the context that does it, or a line that names the file with a word saying so (`Edited: a.py` in the ' +
      'artifact trail).',
    `- ${translated}`,
    '',
    'The policies: the verdict’s best and, when it calls no summarizer, the summarizing floor or else the cheapest ' +
      'summarizing lever at this window whose summarization takes a `language`, so that a summary a model wrote is ' +
      'judged too. With the features: the defaults, the Compactor pins the latest plan call and its result before the strategy ' +
      "runs, and summarization writes in the user’s language (`language: 'auto'`). Without: `planTools: false`, " +
      "and `language: 'en'` where the policy’s summarization takes it. The artifact trail has no switch: it records " +
      'each file’s last state in both rows.',
    '',
    workingStateTable(summary),
    '',
  ].join('\n');
}

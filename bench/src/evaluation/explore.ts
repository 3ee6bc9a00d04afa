/**
 * `pnpm evaluate:explore` (in bench/): searches the family of `policy-family.ts` on the coding transcripts that
 * need compaction at 32k (the verdict's) for the cheapest member that keeps at least 90% of the probes, with
 * and without the summarizer call, and writes bench/results/evaluation-explore.{md,json}. Every member is a
 * configuration a user can write; none reads the probes. The cheapest members found are re-run at 16k and
 * 64k, where they were not chosen, to show whether their settings hold elsewhere. About three minutes on two cores.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createTokenCounter, resolveBudget } from '@compaction/core';
import { defaultPriceModel } from '@compaction/simulation';
import { codingSources, loadTranscripts, missingTranscriptsMessage } from '@compaction/testing/transcripts';
import { resultsDirectory, resultsFile } from '../results-file.js';
import { type LeverMeasure, measureCells, measurePolicy } from './cost-report.js';
import { type EvaluationRow, evaluatePolicy } from './evaluate-policy.js';
import { percent, ratio, table } from './format.js';
import { type FamilyMember, familyPolicy, type SummarizerUse } from './policy-family.js';
import { applicableProbes, extractProbes } from './probes.js';
import { requiredBilling, requiredRetention } from './verdict.js';
import { type EvaluationWindow, fixedWindows } from './windows.js';

/** The settings searched, every combination of them. */
const axes = {
  summarizer: ['transcript', 'continuation', 'none'],
  trigger: ['cache-aware', 'tokens'],
  clearTo: [0.1, 0.15, 0.18, 0.25, 3000, 3500, 4000, 4500, 5000],
  capTokens: [undefined, 500, 1000, 2000],
  mode: ['mask', 'truncate', 'none'],
  recentShare: [0.3, 0.05],
  placement: ['user-before-task', 'assistant-after-task'],
} as const satisfies { [Key in keyof FamilyMember]: readonly FamilyMember[Key][] };

/** How each use of the summarizer reads in the text. */
const summarizerUses: Record<SummarizerUse, string> = {
  none: 'without the summarizer',
  transcript: 'calling the summarizer with a transcript',
  continuation: 'calling the summarizer in the conversation',
};

/** One member measured on the runs of one window. */
interface Measured extends Omit<LeverMeasure, 'policy'> {
  member: FamilyMember;
  name: string;
}

const members = combinations();
const transcripts = loadTranscripts().filter((transcript) => codingSources.includes(transcript.source));
if (transcripts.length === 0) {
  process.stderr.write(`No transcripts: ${missingTranscriptsMessage}. Nothing explored.\n`);
  process.exit(0);
}
const started = performance.now();
const verdictWindow = fixedWindows.find((window) => window.label === '32k')!;
const explored = await measureAll(members, verdictWindow);
process.stderr.write(
  `[${((performance.now() - started) / 1000).toFixed(1)}s] ${members.length} members at 32k\n`,
);
const cheapest = (summarizer: SummarizerUse) =>
  explored
    .filter((entry) => entry.member.summarizer === summarizer && entry.retention >= requiredRetention)
    .sort((left, right) => left.billedRatio - right.billedRatio)[0];
const winners = [cheapest('none'), cheapest('transcript'), cheapest('continuation')].filter(
  (entry) => entry !== undefined,
);
const elsewhere: Measured[] = [];
for (const window of fixedWindows.filter((candidate) => candidate !== verdictWindow)) {
  elsewhere.push(
    ...(await measureAll(
      winners.map((winner) => winner.member),
      window,
    )),
  );
}
const frontier = paretoFrontier(explored);
resultsFile<{ axes: typeof axes; explored: Measured[]; elsewhere: Measured[] }>(
  'evaluation-explore.json',
).save({ axes, explored, elsewhere });
writeFileSync(resolve(resultsDirectory, 'evaluation-explore.md'), render());
process.stdout.write(
  winners
    .map(
      (winner) =>
        `Cheapest at ${percent(requiredRetention, 0)} or more ${summarizerUses[winner.member.summarizer]}: ` +
        `${winner.name}, ${percent(winner.retention)} at ${ratio(winner.billedRatio, 3)}\n`,
    )
    .join(''),
);

function combinations(): FamilyMember[] {
  let all: Partial<FamilyMember>[] = [{}];
  for (const [key, values] of Object.entries(axes)) {
    all = all.flatMap((partial) => values.map((value: unknown) => ({ ...partial, [key]: value })));
  }
  return all as FamilyMember[];
}

/** Runs every member on the coding transcripts that need compaction at `window`. */
async function measureAll(
  candidates: readonly FamilyMember[],
  window: EvaluationWindow,
): Promise<Measured[]> {
  const trigger = resolveBudget({ contextWindow: window.contextWindow }).trigger ?? Number.POSITIVE_INFINITY;
  const needing = transcripts
    .filter((transcript) => createTokenCounter().count(transcript.messages) > trigger)
    .map((transcript) => ({
      transcript,
      probes: applicableProbes(extractProbes(transcript), transcript.messages).applicable,
    }));
  const measured: Measured[] = [];
  for (const member of candidates) {
    const policy = familyPolicy(member);
    const rows: EvaluationRow[] = [];
    for (const { transcript, probes } of needing) {
      rows.push(await evaluatePolicy({ transcript, coding: true, probes, policy, window }));
    }
    const { policy: _policy, ...measure } = measurePolicy(policy, window.label, rows, defaultPriceModel);
    measured.push({ member, name: policy.name, ...measure });
  }
  return measured;
}

/** The members no other beats on both retention and bill, cheapest first. */
function paretoFrontier(entries: readonly Measured[]): Measured[] {
  const sorted = [...entries].sort(
    (left, right) => left.billedRatio - right.billedRatio || right.retention - left.retention,
  );
  const frontier: Measured[] = [];
  for (const entry of sorted) {
    if (frontier.every((kept) => entry.retention > kept.retention)) frontier.push(entry);
  }
  return frontier;
}

function row(entry: Measured): string[] {
  return [entry.window, entry.name, ...measureCells(entry), String(entry.compactions)];
}

/** The cheapest members at 90% with recall, by their bill with recall calls, for each use of the summarizer. */
function recallLines(): string[] {
  return (['transcript', 'continuation', 'none'] as const).map((summarizer) => {
    const best = explored
      .filter((entry) => entry.member.summarizer === summarizer && entry.recoverable >= requiredRetention)
      .sort((left, right) => left.billedWithRecallRatio - right.billedWithRecallRatio)[0];
    const who = summarizerUses[summarizer];
    return best === undefined
      ? `- ${who}: no member keeps ${percent(requiredRetention, 0)} with recall.`
      : `- ${who}: ${best.name}, ${percent(best.recoverable)} with recall at ${ratio(best.billedWithRecallRatio, 3)} ` +
          `(${best.recallCalls} recall ${best.recallCalls === 1 ? 'call' : 'calls'}; ${percent(best.retention)} in context at ${ratio(best.billedRatio, 3)}).`;
  });
}

function render(): string {
  const header = [
    'window',
    'member',
    'retention',
    'billed with caching ×none',
    'retention with recall',
    'billed with recall ×none',
    'recall calls',
    'input sent ×none',
    'compactions',
  ];
  const meeting = explored.filter(
    (entry) => entry.retention >= requiredRetention && entry.billedRatio <= requiredBilling,
  );
  return [
    '# Exploring the cost family',
    '',
    `Written by \`pnpm --filter @compaction/bench evaluate:explore\`: every combination of the settings below (${members.length} members), ` +
      'each a configuration a user can write, run on the coding transcripts that need compaction at 32k (the ' +
      'verdict’s), measured as in [evaluation.md](evaluation.md). The family is tool-result truncation then ' +
      'summarization, or summarization alone (mode `none`); without the summarizer (`none`), the summarization strategy is given `maxOutputTokens: 0`, so it ' +
      'calls no model and the summary is its header and the artifact trail; with it, the summarizer is sent the span ' +
      'as a transcript (`transcript`, the default) or the conversation as sent and one more user message asking ' +
      "for the summary (`continuation`, `summarizerRequest: 'continuation'`), whose prefix the prompt cache " +
      'serves while it is warm. Retention ' +
      'with recall counts the probes the final context still names a handle for; its bill adds one model request ' +
      'per archived item recalled at the end of the run (see the method of evaluation.md).',
    '',
    table(
      ['setting', 'values'],
      Object.entries(axes).map(([key, values]) => [
        key,
        values.map((value) => (value === undefined ? 'none' : String(value))).join(', '),
      ]),
    ),
    '',
    `## The cheapest at ${percent(requiredRetention, 0)} or more`,
    '',
    `${meeting.length} of ${members.length} members keep at least ${percent(requiredRetention, 0)} of the probes in context while billing at most ${ratio(requiredBilling)} no compaction; ` +
      `${meeting.filter((entry) => entry.member.summarizer !== 'none').length} of them call the summarizer (${meeting.filter((entry) => entry.member.summarizer === 'continuation').length} in the conversation). The cheapest without the summarizer, with it on a transcript and with it in the conversation, and the same settings at the other windows (not searched there):`,
    '',
    table(header, [...winners, ...elsewhere].map(row)),
    '',
    '## Counting recall',
    '',
    `The cheapest members that keep ${percent(requiredRetention, 0)} in context or through recall, by their bill with the recall calls:`,
    '',
    ...recallLines(),
    '',
    '## The frontier',
    '',
    'The members no other member beats on both retention and bill at 32k, cheapest first.',
    '',
    table(header, frontier.map(row)),
    '',
  ].join('\n');
}

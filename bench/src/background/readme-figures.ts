/** The background compaction figures of bench/README.md, written from the saved results of `pnpm bench:background`. */
import type {
  BackgroundModeResult,
  BackgroundResults,
  BackgroundSettingResult,
  BackgroundTranscript,
} from './background-results.js';

export const backgroundSectionName = 'background-figures';

const milliseconds = (value: number) => `${Math.round(value)} ms`;
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const dollars = (value: number) => `$${value.toFixed(3)}`;
const verdict = (met: boolean) => (met ? 'pass' : 'FAIL');
const signed = (value: number, digits: number) => `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;

const retentionShare = (mode: BackgroundModeResult) =>
  mode.probes === 0 ? 1 : mode.keptProbes / mode.probes;

/** A row of a setting's table: one mode over one transcript or all. */
function row(mode: BackgroundModeResult): string {
  const retention = retentionShare(mode);
  return (
    `| ${mode.transcript} | ${mode.mode} | ${mode.triggerCalls} | ${mode.compactions} / ${mode.pending} | ` +
    `${milliseconds(mode.p50Milliseconds)} | ${milliseconds(mode.p99Milliseconds)} | ` +
    `${milliseconds(mode.underLimitP99Milliseconds)} | ` +
    `${mode.overLimitCalls === 0 ? '–' : `${milliseconds(mode.overLimitP99Milliseconds)} (${mode.overLimitCalls})`} | ` +
    `${milliseconds(mode.underTriggerP99Milliseconds)} | ${mode.summarizerCalls} | ` +
    `${mode.used} / ${mode.discarded} | ${percent(retention)} (${mode.keptProbes}/${mode.probes}) | ` +
    `${mode.peakRequestTokens} | ${dollars(mode.requestsCost)} + ${dollars(mode.summarizerCost)} = ` +
    `${dollars(mode.cost)} |`
  );
}

/** A row of the table of both settings: one mode over all transcripts of one setting. */
function summaryRow(setting: BackgroundSettingResult, mode: BackgroundModeResult): string {
  return (
    `| ${setting.name} | ${mode.mode} | ${mode.triggerCalls} | ${milliseconds(mode.p50Milliseconds)} | ` +
    `${milliseconds(mode.p99Milliseconds)} | ${milliseconds(mode.underLimitP99Milliseconds)} | ` +
    `${mode.overLimitCalls} | ${percent(retentionShare(mode))} (${mode.keptProbes}/${mode.probes}) | ` +
    `${dollars(mode.cost)} |`
  );
}

/** A row of the goals: one setting's checks, background against in line over all its transcripts. */
function goalsRow(setting: BackgroundSettingResult): string {
  const { checks } = setting;
  const background = setting.modes.find((mode) => mode.mode === 'background' && mode.transcript === 'all');
  const p99 = milliseconds(background?.p99Milliseconds ?? 0);
  const underLimit = milliseconds(background?.underLimitP99Milliseconds ?? 0);
  return (
    `| ${setting.name} | **${verdict(checks.p99Met)}** (${p99}) | **${verdict(checks.underLimitP99Met)}** ` +
    `(${underLimit}; ${checks.overLimitCalls} calls over the limit) | **${verdict(checks.retentionMet)}** ` +
    `(${signed(checks.retentionDifferencePoints, 1)} points) | **${verdict(checks.billMet)}** ` +
    `(${signed(checks.billDifferenceShare * 100, 1)}%) |`
  );
}

const replayedTranscript = (transcript: BackgroundTranscript) =>
  `${transcript.name} (${transcript.modelCalls} model calls, largest turn ${transcript.largestTurnTokens}, ` +
  `window ${transcript.contextWindow})`;
const leftOutTranscript = (transcript: BackgroundTranscript) =>
  `${transcript.name} (${transcript.modelCalls} model calls, history ${transcript.historyTokens}, largest turn ` +
  `${transcript.largestTurnTokens}): its window would be ${transcript.contextWindow} with the trigger at ` +
  `${transcript.triggerTokens}, but the last \`prepare\` is given ${transcript.lastCallTokens} tokens uncompacted, ` +
  'so the trigger never fires';

/** One setting's detail: how its windows were sized, the transcripts it left out, each transcript's rows. */
function settingDetail(setting: BackgroundSettingResult): string[] {
  // All transcripts first, then each one, its two modes side by side (the sort is stable).
  const rank = (transcript: string) => (transcript === 'all' ? '' : transcript);
  const ordered = [...setting.modes].sort((left, right) =>
    rank(left.transcript).localeCompare(rank(right.transcript)),
  );
  const leftOut =
    setting.leftOut.length === 0 ? '' : `. Left out: ${setting.leftOut.map(leftOutTranscript).join('; ')}`;
  return [
    `**${setting.name}**: ${setting.description}; ${setting.transcripts.map(replayedTranscript).join(', ')}` +
      `${leftOut}.`,
    '',
    '| transcript | mode | calls over the trigger | compacted / sent as is | `prepare` there, p50 | p99 | p99 under the limit | p99 over the limit (calls) | under the trigger, p99 | summarizer calls | background used / dropped | retention | largest request | bill: requests + summarizer |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...ordered.map(row),
  ];
}

export function backgroundReadmeFigures(results: BackgroundResults): string {
  const { settings } = results;
  const goal = settings[0]?.checks;
  return [
    `A summarizer that answers after ${results.summarizerMilliseconds} ms, ${results.modelCallMilliseconds} ms ` +
      `per simulated model call, trigger ${results.trigger}, target ${results.target}, \`prepareAt\` ` +
      `${results.prepareAt}; ${settings.length} settings of the context window, each with both modes, all ` +
      `side by side in one run, Node ${results.node}, ${results.cores} cores, ${results.date}. Over all ` +
      'transcripts of each setting:',
    '',
    '| setting | mode | calls over the trigger | `prepare` there, p50 | p99 | p99 under the limit | calls over the limit | retention | bill |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|',
    ...settings.flatMap((setting) =>
      setting.modes.filter((mode) => mode.transcript === 'all').map((mode) => summaryRow(setting, mode)),
    ),
    '',
    `Goals, background against in line over all transcripts of each setting (a call given a history over the ` +
      'limit cannot be sent before a compaction ends):',
    '',
    `| setting | background p99 at the trigger under ${goal?.p99GoalMilliseconds} ms | the same under the limit | ` +
      `retention within ${goal?.retentionPoints} point | bill at most ${percent(goal?.billShare ?? 0)} above |`,
    '|---|---|---|---|---|',
    ...settings.map(goalsRow),
    ...settings.flatMap((setting) => ['', ...settingDetail(setting)]),
  ].join('\n');
}

/** The Markdown report of the strategy benchmark (bench/results/strategies.md), written from its results. */
import {
  compactorPath,
  maskName,
  pruneCountingName,
  pruneMessagesName,
  strategyNames,
  trimMessagesName,
  trimmingStrategies,
} from './contender-names.js';
import { measured, ratio, thousands } from './format.js';
import type { HistoryResult, StrategyResults, Timing } from './results.js';
import {
  minimumWarmUpRounds,
  warmUpCeilingMilliseconds,
  warmUpMilliseconds,
  warmUpRounds,
} from './timing.js';

export function strategyReport(results: StrategyResults): string {
  const lines = [
    '# Strategy benchmark',
    '',
    `Median milliseconds per compaction. Node ${results.node}, ${results.cores} cores, load average ` +
      `${results.loadAverage.toFixed(1)} at the start, ${results.date}.`,
    '',
    '**Warm**: the shared counter has already counted the history, as `Compactor.check` does before every ' +
      'compaction in an agent loop. **Cold**: a fresh counter, so the run also estimates every message. ' +
      '**Compactor** rows: the same strategy through `Compactor.compact` (history repair, verification and the ' +
      'event on top), with the same limit and target. Peers get the same histories converted once, untimed, to ' +
      'their own types; `trimMessages` (`strategy: "last"`, `includeSystem`, `startOn: "human"`) counts with ' +
      'the same memoized counter, looked up by message `id` (it copies every message first).',
    '',
    '**Every output is checked before its time counts**: converted back to core messages, it must keep every ' +
      'rule `verifyCompaction` checks (valid messages, tool calls and results paired, system prompt and newest ' +
      'request kept...) and count at or under the target. A contender whose output fails is shown as ' +
      '`refused` and the bench exits non-zero. The target is half of each history; for masking every old tool ' +
      'result and `pruneMessages` (which has no token budget), it is the tokens of the history with every old ' +
      'result masked.',
    '',
    'Contenders on one history run **interleaved**: in turns, every other round in reverse order, after the ' +
      `same untimed warm-up (at least ${warmUpRounds} rounds and ${warmUpMilliseconds} ms, or at least ` +
      `${minimumWarmUpRounds} rounds once ${warmUpCeilingMilliseconds} ms have passed), warm beside warm and ` +
      'cold beside cold, so every ratio compares runs taken in the same heap, JIT and machine state. Ratio: ' +
      'ours ÷ other (below 1× means ours is faster). `pruneMessages` counts nothing, so it runs the same way in ' +
      'both columns; `pruneMessages + counting its output` adds counting every text it kept with a fresh fast ' +
      'estimator, as our strategies count their output to stop at a target.',
  ];
  if (results.failures.length > 0) {
    lines.push('', '## Refused outputs', '', ...results.failures.map((failure) => `- ${failure}`));
  }
  lines.push('', '## Generated coding histories', '');
  lines.push(
    '| history | target | contender | warm ms | cold ms | Compactor warm ms | Compactor cold ms | ' +
      'Compactor ÷ strategy warm | peer | peer warm ms | peer cold ms | ratio warm | ratio cold |',
  );
  lines.push('|---|--:|---|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|');
  for (const history of results.sizes) lines.push(...historyRows(history));
  lines.push(...outOfReachLines(results.sizes));

  lines.push('', '## Real transcripts', '');
  if (results.transcripts === null) {
    lines.push('Skipped: the transcripts were not found.');
  } else {
    lines.push(
      'Warm medians in milliseconds (cold in parentheses), ratios likewise, target half of each transcript; ' +
        '`mask all old` and the `pruneMessages` columns have the target of every old result masked.',
      '',
      '| transcript | messages | tokens | truncation | mask | pruning | sliding-window | trimMessages | ' +
        'sliding ÷ trim | mask all old | pruneMessages | mask ÷ prune | prune + count | mask ÷ (prune + count) |',
      '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    );
    for (const transcript of results.transcripts) lines.push(transcriptRow(transcript));
    lines.push(...outOfReachLines(results.transcripts));
  }
  return `${lines.join('\n')}\n`;
}

/** Why the jobs left out of a table were out of reach. */
function outOfReachLines(histories: readonly HistoryResult[]): string[] {
  const lines = histories.flatMap((history) =>
    Object.entries(history.outOfReach).map(([name, why]) => `- ${history.name}, ${name}: ${why}.`),
  );
  return lines.length === 0
    ? []
    : ['', 'Out of reach at half of the history, so not posed (and not timed):', '', ...lines];
}

function historyRows(history: HistoryResult): string[] {
  const label = `${thousands(history.tokens)} tokens, ${thousands(history.messages)} messages`;
  const rows: string[] = [];
  for (const name of strategyNames) {
    const ours = history.half[name];
    const compactor = history.half[compactorPath(name)];
    const peer = trimmingStrategies.includes(name)
      ? { name: trimMessagesName, timing: history.half[trimMessagesName] }
      : undefined;
    rows.push(row(label, thousands(history.target), name, ours, compactor, peer));
  }
  const mask = history.allOld[maskName];
  for (const peer of [pruneMessagesName, pruneCountingName]) {
    rows.push(
      row(label, thousands(history.allOldTarget), `${maskName}, every old result`, mask, null, {
        name: peer,
        timing: history.allOld[peer],
      }),
    );
  }
  return rows;
}

function row(
  history: string,
  target: string,
  name: string,
  ours: Timing | undefined,
  compactor: Timing | undefined | null,
  peer: { name: string; timing: Timing | undefined } | undefined,
): string {
  return [
    '',
    history,
    target,
    name,
    measured(ours?.warm),
    measured(ours?.cold),
    compactor === null ? '' : measured(compactor?.warm),
    compactor === null ? '' : measured(compactor?.cold),
    ratio(compactor?.warm, ours?.warm),
    peer?.name ?? '—',
    peer === undefined ? '' : measured(peer.timing?.warm),
    peer === undefined ? '' : measured(peer.timing?.cold),
    ratio(ours?.warm, peer?.timing?.warm),
    ratio(ours?.cold, peer?.timing?.cold),
    '',
  ]
    .join(' | ')
    .trim();
}

function transcriptRow(transcript: HistoryResult): string {
  const cell = (timing: Timing | undefined) =>
    timing === undefined ? measured(undefined) : `${measured(timing.warm)} (${measured(timing.cold)})`;
  const ratios = (ours: Timing | undefined, peer: Timing | undefined) =>
    ours === undefined || peer === undefined
      ? ''
      : `${ratio(ours.warm, peer.warm)} (${ratio(ours.cold, peer.cold)})`;
  const { half, allOld } = transcript;
  return (
    `| ${transcript.name} | ${transcript.messages} | ${thousands(transcript.tokens)} | ` +
    `${cell(half['tool-result-truncation'])} | ${cell(half[maskName])} | ${cell(half.pruning)} | ` +
    `${cell(half['sliding-window'])} | ${cell(half[trimMessagesName])} | ` +
    `${ratios(half['sliding-window'], half[trimMessagesName])} | ${cell(allOld[maskName])} | ` +
    `${cell(allOld[pruneMessagesName])} | ${ratios(allOld[maskName], allOld[pruneMessagesName])} | ` +
    `${cell(allOld[pruneCountingName])} | ${ratios(allOld[maskName], allOld[pruneCountingName])} |`
  );
}

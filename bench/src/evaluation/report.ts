import type { PriceModel } from '@compaction/simulation';
import {
  aggregate,
  billedRatioOf,
  billedWithRecallRatioOf,
  compressionOf,
  inputRatioOf,
  recoverableOf,
  retentionOf,
} from './aggregate.js';
import { type LeverMeasure, renderCostLevers } from './cost-report.js';
import type { EvaluationRow } from './evaluate-policy.js';
import { dollars, fraction, integer, milliseconds, percent, ratio, table } from './format.js';
import type { Policy } from './policies.js';
import { type ProbeKind, probeKinds } from './probe.js';
import type { SpeedResult } from './speed.js';
import { requiredBilling, requiredRetention, type Verdict } from './verdict.js';

/** What one transcript contributed. */
export interface TranscriptSummary {
  name: string;
  source: string;
  coding: boolean;
  messages: number;
  tokens: number;
  /** Probes by kind that the uncompacted transcript contains. */
  probes: Record<ProbeKind, number>;
  /** Probes derived but never present in the transcript (not counted). */
  absentProbes: number;
  /** Windows at which this transcript needs compaction, in its own table. */
  windows: string[];
}

/** Everything the report is written from. */
export interface EvaluationReport {
  quick: boolean;
  environment: string;
  prices: PriceModel;
  policies: readonly Policy[];
  transcripts: readonly TranscriptSummary[];
  rows: readonly EvaluationRow[];
  verdict: Verdict;
  /** The lever policies at each window, for the levers' section. */
  levers: readonly LeverMeasure[];
  speed: readonly SpeedResult[];
  speedRuns: { transcripts: number; generated: number };
  generatedHistory: { name: string; window: number };
  charts: {
    retention: string;
    billed: string;
    context: string;
    contextTitle: string;
    best: string | undefined;
  };
}

const kindLabels: Record<ProbeKind, string> = {
  task: 'task',
  request: 'request',
  file: 'files',
  command: 'commands',
  error: 'errors',
  'expected-action': 'expected args',
};

/** Writes `bench/results/evaluation.md`. */
export function renderReport(report: EvaluationReport): string {
  const coding = report.transcripts.filter((transcript) => transcript.coding);
  const tau = report.transcripts.filter((transcript) => !transcript.coding);

  const sections: string[] = [
    '# Evaluation on real transcripts',
    '',
    `What survives compaction, what it costs and how fast it runs, on the ${report.transcripts.length} shared real agent transcripts (` +
      `${coding.length} coding-agent: mini-swe-agent, SWE-agent, Claude Code, OpenHands; ${tau.length} tau-bench airline), ` +
      'for every Compaction strategy and pipeline and for reference policies emulated from other systems’ public defaults, in the same tables.',
    '',
    `Written by \`pnpm --filter @compaction/bench evaluate${report.quick ? ' --quick' : ''}\` (${report.quick ? 'quick mode: fewer timing runs' : 'full mode'}) on ${report.environment}. ` +
      'Everything but the speed section is deterministic: the same transcripts give the same numbers.',
    '',
    '## Verdict',
    '',
    ...renderVerdict(report.verdict, report.prices),
    '',
    ...beyondTheVerdict(report.verdict, [
      ['all coding transcripts, each at its own window', atOwnWindow(report, coding)],
      ['all coding transcripts at 64k', atWindow(report, coding, '64k')],
    ]),
    ...headlineTables(report, coding, tau),
    ...renderCostLevers(report.levers, report.prices),
    '',
    ...renderCharts(report),
    ...renderMethod(report),
    '',
    ...renderSpeed(report),
    '',
    '## Every transcript',
    '',
    'One table per transcript, at each window where it needs compaction: the fixed 16k, 32k and 64k windows when it is over ' +
      'their trigger, else its scaled window. "Lost" counts the probes gone from the final context by kind; `d` ' +
      'dropped with their turn, `s` still there but shortened, masked or cleared.',
    '',
  ];
  for (const transcript of report.transcripts) {
    sections.push(...renderTranscript(transcript, report));
  }
  return `${sections.join('\n')}\n`;
}

const codingKinds: ProbeKind[] = ['task', 'request', 'file', 'command', 'error'];
const tauKinds: ProbeKind[] = ['task', 'request', 'error', 'expected-action'];

/** The rows of these transcripts, each at its own window (the first it is evaluated at). */
function atOwnWindow(report: EvaluationReport, names: readonly TranscriptSummary[]): EvaluationRow[] {
  return report.rows.filter((row) => {
    const transcript = names.find((candidate) => candidate.name === row.transcript);
    return transcript !== undefined && row.window.label === transcript.windows[0];
  });
}

/** The rows of these transcripts at one window. */
function atWindow(
  report: EvaluationReport,
  names: readonly TranscriptSummary[],
  label: string,
): EvaluationRow[] {
  return report.rows.filter(
    (row) => row.window.label === label && names.some((transcript) => transcript.name === row.transcript),
  );
}

/** The headline tables: the verdict's transcripts at 32k, the coding ones at their own window and at 64k, tau-bench. */
function headlineTables(
  report: EvaluationReport,
  coding: readonly TranscriptSummary[],
  tau: readonly TranscriptSummary[],
): string[] {
  const needing32k = report.verdict.transcripts;
  return [
    '## Headline tables',
    '',
    'Rows are added up over the transcripts: retention is pooled (probes kept over probes); recoverable counts the probes ' +
      'kept or reachable with the `recall` tool through a handle the final context names (Compaction’s policies run ' +
      'archiving, as with a store; reference policies archive nothing); compression is the share of ' +
      'tokens the final context has fewer than the whole history, ratios are against no compaction on the same ' +
      'transcripts. `*` marks policies that call the scripted summarizer (fixed text, see the method). ' +
      '"Calls over limit" are requests the provider would have refused.',
    '',
    `### Coding transcripts that need compaction at a 32k window (${needing32k.join(', ')})`,
    '',
    aggregateTable(
      report.policies,
      atWindow(report, coding, '32k').filter((row) => needing32k.includes(row.transcript)),
      codingKinds,
    ),
    '',
    `### All ${coding.length} coding transcripts, each at a window that forces compaction`,
    '',
    'The transcripts over the 32k trigger at 32k, the others at their scaled window (see each transcript’s table).',
    '',
    aggregateTable(report.policies, atOwnWindow(report, coding), codingKinds),
    '',
    `### All coding transcripts at a 64k window`,
    '',
    aggregateTable(report.policies, atWindow(report, coding, '64k'), codingKinds),
    '',
    `### tau-bench (${tau.length} conversations), each at its scaled window`,
    '',
    'Every tau-bench conversation fits a 32k window whole (the largest is ' +
      `${integer(Math.max(0, ...tau.map((transcript) => transcript.tokens)))} tokens), so they are run at their scaled window only.`,
    '',
    aggregateTable(report.policies, atOwnWindow(report, tau), tauKinds),
    '',
  ];
}

/** The charts and what each point of them is. */
function renderCharts(report: EvaluationReport): string[] {
  return [
    '## Charts',
    '',
    `![Billed input with caching against retention](${report.charts.billed})`,
    '',
    `Each point is one policy on the coding transcripts that need compaction at 32k (the verdict’s), billed input with prompt caching against no compaction on the x axis (a policy billing more than no compaction sits at 100%).`,
    '',
    `![Retention against compression](${report.charts.retention})`,
    '',
    'Each point is one policy added up over a group of transcripts, each at its own window (as in the second and fourth headline tables).',
    '',
    `![${report.charts.contextTitle}](${report.charts.context})`,
    '',
    ...(report.charts.best === undefined || report.verdict.best === undefined
      ? []
      : [
          `The same run for the best pipeline, ${report.verdict.best.totals.policy.name}, drawn by the CLI's \`plotSimulation\` with the trigger and the context without compaction:`,
          '',
          `![The best pipeline at 32k](${report.charts.best})`,
          '',
        ]),
  ];
}

function aggregateTable(
  policies: readonly Policy[],
  rows: readonly EvaluationRow[],
  kinds: readonly ProbeKind[],
): string {
  const body = policies.map((policy) => {
    const totals = aggregate(policy, rows);
    return [
      policy.name,
      `${integer(totals.overLimitSteps)}/${integer(totals.steps)}`,
      integer(totals.compactions),
      percent(retentionOf(totals.probes)),
      percent(recoverableOf(totals)),
      ...kinds.map((kind) => fraction(totals.byKind[kind].kept, totals.byKind[kind].total)),
      percent(compressionOf(totals)),
      ratio(inputRatioOf(totals)),
      ratio(billedRatioOf(totals)),
      dollars(totals.cost),
    ];
  });
  return table(
    [
      'policy',
      'calls over limit',
      'compactions',
      'retention',
      'recoverable',
      ...kinds.map((kind) => kindLabels[kind]),
      'compression',
      'input sent ×none',
      'billed with caching ×none',
      'cost',
    ],
    body,
  );
}

/** How the verdict's best does on the transcripts the check does not count, where it was not chosen. */
function beyondTheVerdict(
  verdict: Verdict,
  groups: readonly (readonly [string, readonly EvaluationRow[]])[],
): string[] {
  const best = verdict.best;
  if (best === undefined) return [];
  const figures = groups.map(([label, rows]) => {
    const totals = aggregate(best.totals.policy, rows);
    return `${percent(retentionOf(totals.probes))} at ${ratio(billedRatioOf(totals))} on ${label}`;
  });
  return [
    `Beyond the check: its settings were chosen on the check’s transcripts; with the others counted too, ` +
      `${best.totals.policy.name} keeps ${figures.join('; ')} (each against no compaction on the same transcripts).`,
    '',
  ];
}

function renderVerdict(verdict: Verdict, prices: PriceModel): string[] {
  const best = verdict.best;
  if (best === undefined) return ['No coding transcript needs compaction at 32k: nothing to check.'];
  const lines: string[] = [
    `**Check:** on the coding transcripts at a ${verdict.window} window, does the best Compaction pipeline keep at least ` +
      `${percent(requiredRetention, 0)} of the probes while billing at most ${percent(requiredBilling, 0)} of the input tokens of no compaction? ` +
      `Only ${verdict.transcripts.join(' and ')} exceed the 32k trigger; the other coding transcripts fit and are never compacted, so the check is made on these.`,
    '',
    candidatesTable(verdict),
    '',
  ];
  const name = `**${best.totals.policy.name}**`;
  const numbers =
    `keeps ${percent(best.retention)} of the probes (${best.totals.probes.kept} of ${best.totals.probes.total}) and bills ` +
    `${ratio(best.billedRatio, 3)} the input of no compaction with prompt caching ` +
    `(${integer(best.totals.billedInputTokens)} against ${integer(best.totals.baselineBilledInputTokens)} input-price tokens), ` +
    `${ratio(best.inputRatio)} counting input tokens sent (${integer(best.totals.inputTokens)} against ${integer(best.totals.baselineInputTokens)})`;
  lines.push(
    ...(best.meetsWithCaching
      ? metVerdict(best, name, numbers)
      : notMetVerdict(verdict, best, prices, name, numbers)),
  );
  lines.push(...losses(verdict, best, name));
  lines.push(
    '',
    'Caveat on the summarizing pipelines: with a summarizer that writes no facts, their coding retention comes from the ' +
      'artifact trail, which records the same kinds of facts these probes test (paths, commands, error lines), though with ' +
      'its own code; facts the trail does not record, such as tau-bench’s booking arguments, are lost (see the tau-bench table).',
  );
  return lines;
}

type Candidate = Verdict['candidates'][number];

/** Each strategy and pipeline on the verdict's transcripts: retention and bill, with and without recall. */
function candidatesTable(verdict: Verdict): string {
  return table(
    [
      'strategy or pipeline',
      'retention',
      `billed with caching ×none`,
      'retention with recall',
      'billed with recall ×none',
      'input sent ×none',
      'meets (caching)',
      'meets (no caching)',
    ],
    verdict.candidates.map((candidate) => [
      candidate.totals.policy.name,
      percent(candidate.retention),
      ratio(candidate.billedRatio, 3),
      percent(recoverableOf(candidate.totals)),
      ratio(billedWithRecallRatioOf(candidate.totals), 3),
      ratio(candidate.inputRatio, 3),
      candidate.meetsWithCaching ? 'yes' : 'no',
      candidate.meetsWithoutCaching ? 'yes' : 'no',
    ]),
  );
}

/** The verdict when the best meets the bar with prompt caching, and what its margin rests on. */
function metVerdict(best: Candidate, name: string, numbers: string): string[] {
  return [
    `**Met.** The best, ${name}, ${numbers}. The check counts the probes the final context holds (the ` +
      'retention column); the recall columns add those it names a handle for and the recall calls that would ' +
      'bring them back (see the cost levers). ' +
      (best.totals.policy.summarizes
        ? ''
        : 'It calls no summarizer: the summary it writes is the artifact trail alone, which holds the kinds of ' +
          'facts the probes test (paths, commands, errors) and nothing a real summary would add (decisions, ' +
          'state), and it saves the summarizer’s calls (each span read at the full input price, or asked in the ' +
          'conversation, the conversation read from the cache) and the summary text every later call carries. ') +
      (best.totals.policy.explored === true
        ? 'Its settings were chosen by hand near the frontier of a search over a family of configurations on these ' +
          'same transcripts (`pnpm evaluate:explore`, [evaluation-explore.md](evaluation-explore.md), which lists the ' +
          'cheapest members the search found); they are re-run at 16k and 64k in the cost levers’ table and on the ' +
          'other coding transcripts below. '
        : '') +
      `The margin is ${percent(requiredBilling - best.billedRatio)} of no compaction’s bill and ` +
      `${((best.retention - requiredRetention) * 100).toFixed(1)} points of retention. The bill assumes the ` +
      'provider’s cache serves any prefix the previous request shares: OpenAI’s prompt cache finds it by itself; ' +
      'with Anthropic, it takes `cache_control` breakpoints on the system prompt, the task and the last message.',
  ];
}

/** The verdict when no candidate meets the bar with prompt caching, and why caching changes the answer. */
function notMetVerdict(
  verdict: Verdict,
  best: Candidate,
  prices: PriceModel,
  name: string,
  numbers: string,
): string[] {
  const withoutCaching = verdict.candidates.filter((candidate) => candidate.meetsWithoutCaching);
  return [
    `**Not met with prompt caching.** The closest, ${name}, ${numbers}.` +
      (withoutCaching.length > 0
        ? ` Without caching (every input token at the input price) the bar is met by ${withoutCaching.map((candidate) => candidate.totals.policy.name).join(', ')}.`
        : ' Without caching it is not met either.'),
    '',
    `Why caching changes the answer: with caching, no compaction pays for most of each request at the cache-read price ` +
      `(${prices.cacheReadPerMillion} against ${prices.inputPerMillion} per million), so a shorter context saves less than its size suggests. ` +
      `Part of the bill is out of any policy's reach: every message is written to the cache once when it is first sent ` +
      `(${ratio(prices.cacheWritePerMillion / prices.inputPerMillion)} the input price), which alone is ${percent(writeFloor(best, prices))} of no compaction's billed input here; ` +
      'on top of it, every compaction writes the compacted context to the cache again and every summarizer call reads its span at the full input price ' +
      '(asked in the conversation, it reads the prefix the last call wrote from the cache, and writes the rest). ' +
      'Compacting earlier and deeper lowers the bill, at the price of more compactions and, past a point, of probes.',
  ];
}

/** What the candidates that lose probes lose, by kind and why. */
function losses(verdict: Verdict, best: Candidate, name: string): string[] {
  const lines: string[] = [];
  const losing = verdict.candidates.filter((candidate) => candidate.lost.length > 0);
  if (best.lost.length === 0) {
    lines.push('', `${name} loses no probe: what keeps it from the bar is the bill, not retention.`);
  }
  if (losing.length > 0) {
    lines.push('', 'What the strategies and pipelines that lose probes lose, by kind and why:', '');
    for (const candidate of losing) {
      lines.push(
        `**${candidate.totals.policy.name}** (${percent(candidate.retention)} kept):`,
        '',
        ...lostSummary(candidate),
        '',
      );
    }
    lines.push(
      'Dropping turns (pruning, sliding-window, and the condenser’s summarized span) takes the commands, paths and errors of the ' +
        'oldest turns with them; the original task and the newest request are always kept. Shortening or clearing tool results keeps every ' +
        'call, so it can only lose what results alone held: error lines, and tau-bench values first seen in a lookup.',
    );
  }
  return lines;
}

/** The share of no compaction's billed input that writing every message to the cache once costs. */
function writeFloor(candidate: Verdict['candidates'][number], prices: PriceModel): number {
  const writes = (candidate.totals.uncompactedTokens * prices.cacheWritePerMillion) / prices.inputPerMillion;
  return candidate.totals.baselineBilledInputTokens === 0
    ? 0
    : writes / candidate.totals.baselineBilledInputTokens;
}

function lostSummary(candidate: Verdict['candidates'][number]): string[] {
  const lines: string[] = [];
  for (const kind of probeKinds) {
    const lost = candidate.lost.filter((entry) => entry.probe.kind === kind);
    if (lost.length === 0) continue;
    const dropped = lost.filter((entry) => entry.reason === 'dropped').length;
    const examples = lost
      .slice(0, 3)
      .map((entry) => `\`${entry.probe.text.slice(0, 70).replace(/`/g, "'")}\``)
      .join(', ');
    const shortened = lost.length - dropped;
    const why =
      shortened === 0
        ? 'all with a dropped turn'
        : dropped === 0
          ? 'all in shortened results'
          : `${dropped} with a dropped turn, ${shortened} in shortened results`;
    lines.push(
      `- ${kindLabels[kind]}: ${lost.length} of ${candidate.totals.byKind[kind].total} lost (${why}), e.g. ${examples}`,
    );
  }
  return lines;
}

function renderMethod(report: EvaluationReport): string[] {
  const prices = report.prices;
  return [
    '## Method',
    '',
    '**Transcripts.** Read by `loadTranscripts()` from `@compaction/testing/transcripts` (bash blocks and `<returncode>` outputs of mini-swe-agent become tool calls and results, and so on for each format), repaired as that function documents. Nothing in them was written for this evaluation.',
    '',
    '**Probes** are derived from each transcript without an LLM: the original task and the newest user request (their first 200 characters), every file path a tool call touched (path fields of the input, and the path-like words of a shell command outside quotes and here-documents), every shell command (its first line, first 100 characters), every error line of a tool result (a line starting with `SomeError:`, `error:`, `ERROR`, `fatal:` or `FAILED`, or a shell’s "No such file or directory"…, first 160 characters), and for tau-bench every argument value of the task’s expected actions of 3 characters or more (ids, names, dates, amounts). Probes the uncompacted transcript never contains (an expected action the agent never got to) are left out and counted per transcript. A probe is **kept** when its text (whitespace collapsed) is still in the final context: message text, reasoning, tool names and input values, tool outputs. The final context is the last compaction’s output followed by every message after it.',
    '',
    `**Cost simulation.** The CLI’s \`simulate\` engine replays each transcript as an agent loop: before every assistant message the model is called with the context, compacted first when the policy’s trigger fires. Billing follows prompt caching: the prefix of a request that repeats the previous request (the same messages in order) is a cache read, the rest a cache write. Prices per million tokens: input $${prices.inputPerMillion}, cache read $${prices.cacheReadPerMillion}, cache write $${prices.cacheWritePerMillion}, output $${prices.outputPerMillion} (the engine’s default, Anthropic list prices with the 5-minute cache). A call made more than ${prices.cacheLifetimeSeconds} seconds after the previous one finds the cache gone and writes its whole context again; calls are timed by the transcripts where they record it (mini-swe-agent’s response times), else assumed 30 seconds apart. **Billed with caching** is the input cost over the input price (uncached + 0.1 × cache reads + 1.25 × cache writes, summarizer calls included: a summarizer request of its own, such as a transcript, is uncached; one that continues the conversation, \`summarizerRequest: 'continuation'\`, is billed as a model call, the prefix it shares with the last request sent a cache read while the cache is warm and the rest a cache write, which assumes the summarizer request carries the agent’s own tools, \`tool_choice\` and thinking settings, as the provider keys its cache on them); **input sent** is every input token (what is billed without caching). Tokens are counted with Compaction’s fast estimator. No compaction is run at every window even when its requests are over the limit (a provider would refuse them); those calls are counted.`,
    '',
    '**Recall.** Retention with recall counts a lost probe as recovered when an archived item the final context names a ' +
      'handle for (directly, or through the text of another) holds it. Its bill is priced, not assumed free: the probes ' +
      'are asked at the end of the run, so the recalls are made then, in the order of the probes, one model request per ' +
      'archived item read (by the shortest chain of handles; a probe in an item already recalled costs nothing more). ' +
      'Each request reads the final context and the earlier recalls from the cache and writes the recall call and the ' +
      'recalled text to it (1.25 × the input price), and every later recall carries them. Output tokens (the calls) are ' +
      'not in the billed-input ratio. The bar is checked on retention in context, not with recall.',
    '',
    '**Windows.** 16k, 32k and 64k for every coding transcript (tau-bench fits 32k whole, so it runs at its scaled window only); a transcript that does not exceed the 32k trigger also runs at its **scaled** window, 0.7 × its size rounded up to 500 tokens: with the default budget (a quarter of a small window reserved for output, 5% margin) the limit is then about half the transcript and compaction fires at about 40% of it.',
    '',
    '**Scripted summarizer.** Policies marked `*` summarize with `createMockProvider` from `@compaction/testing`, answering every request with one fixed structured text (the seven sections the summarization strategy requires) that holds no fact of the conversation. What they retain therefore comes from what they keep verbatim and from what they record without a model (the summarization strategy’s artifact trail); a real summarizer could only add to it. Their calls are billed through the engine’s metered provider.',
    '',
    '**Policies.** Compaction’s strategies run with their defaults and the default budget (trigger at 0.85 of the limit, compact to 0.6). The reference policies are implemented in `bench/src/evaluation/` as strategies plus trigger settings and run through the same engine:',
    '',
    table(
      ['policy', 'id', 'kind', 'setup'],
      report.policies.map((policy) => [policy.name, `\`${policy.id}\``, policy.kind, policy.description]),
    ),
    '',
    'Emulation notes: the reference policies are not held to the limit by Compaction’s verification (their systems send what the policy produced), so their results are used even when over the limit, and calls over it are counted as for every policy. Anthropic context editing (`clear_tool_uses`) clears tool results once the input passes 100,000 tokens and keeps the 3 newest tool uses; at 32k and 64k the limit is under 100k, so the default never fires (same numbers as no compaction) and the scaled variant fires at half the window. Observation masking (a window of the 10 newest observations) and the 120-event condenser decide for themselves and are offered a compaction before every call; Compaction’s Compactor waits for 4 new messages after a compaction while the context is over its trigger, so they act at most every other call. The condenser counts one event per message, cuts at turn boundaries and keeps the newest user request, so that its result stays valid for a provider. Server-side compaction (Anthropic `compact_20260112`, OpenAI Responses `compaction`) replaces everything before the newest turn with one summary when the input passes its threshold (150,000 tokens by default at Anthropic, scaled here to 0.825 of the limit); it is emulated by the summarization strategy keeping one recent turn, with the same scripted summarizer, so its retention comes from the artifact trail alone, where the provider’s model would write its own summary.',
  ];
}

function renderSpeed(report: EvaluationReport): string[] {
  const histories = [...new Set(report.speed.map((result) => result.history))];
  const timed = report.policies.filter((policy) => report.speed.some((result) => result.policy === policy));
  const rows = histories.map((history) => {
    const results = report.speed.filter((result) => result.history === history);
    const first = results[0]!;
    return [
      history,
      integer(first.messages),
      integer(first.tokens),
      ...timed.map((policy) => {
        const result = results.find((candidate) => candidate.policy === policy);
        return result === undefined ? '–' : `${milliseconds(result.medianMs)}${result.failed ? ' †' : ''}`;
      }),
    ];
  });
  return [
    '## Speed',
    '',
    `Median time of one compaction of the whole history (${report.speedRuns.generated} runs on the generated history, ${report.speedRuns.transcripts} on each transcript, after a warm-up run), the token counter warm as after the Compactor’s check, a fresh strategy per run. Budgets: each transcript at its scaled window, \`${report.generatedHistory.name}\` at a ${integer(report.generatedHistory.window)}-token window. \`†\`: the strategy threw (it could not reach the limit alone; in a pipeline or with a fallback the next stage takes over). Summarizing policies include the scripted summarizer’s (instant) answers. Peers (LangChain.js \`trimMessages\`, the AI SDK's \`pruneMessages\`) are timed side by side in [strategies.md](strategies.md).`,
    '',
    'Columns are the policy ids of the method’s table.',
    '',
    table(['history', 'messages', 'tokens', ...timed.map((policy) => policy.id)], rows),
  ];
}

function renderTranscript(transcript: TranscriptSummary, report: EvaluationReport): string[] {
  const rows = report.rows.filter(
    (row) => row.transcript === transcript.name && transcript.windows.includes(row.window.label),
  );
  const probeCounts = probeKinds
    .filter((kind) => transcript.probes[kind] > 0)
    .map((kind) => `${transcript.probes[kind]} ${kindLabels[kind]}`)
    .join(', ');
  const body = rows.map((row) => {
    const lostByKind = probeKinds
      .map((kind) => {
        const lost = row.lost.filter((entry) => entry.probe.kind === kind);
        if (lost.length === 0) return '';
        const dropped = lost.filter((entry) => entry.reason === 'dropped').length;
        const parts = [
          dropped > 0 ? `${dropped}d` : '',
          lost.length - dropped > 0 ? `${lost.length - dropped}s` : '',
        ]
          .filter(Boolean)
          .join('+');
        return `${kindLabels[kind]} ${parts}`;
      })
      .filter(Boolean)
      .join(', ');
    return [
      `${row.window.label} (${integer(row.window.contextWindow)})`,
      row.policy.name,
      `${row.overLimitSteps}/${row.steps}`,
      String(row.compactions),
      `${percent(row.retention.share)} (${row.retention.kept}/${row.retention.total})`,
      percent(row.retention.recoverableShare),
      lostByKind || '–',
      `${integer(row.finalTokens)} (${percent(compressionOf(row), 0)})`,
      integer(row.peakContextTokens),
      ratio(inputRatioOf(row)),
      ratio(billedRatioOf(row)),
      dollars(row.cost),
    ];
  });
  return [
    `### ${transcript.name}`,
    '',
    `${transcript.source}, ${integer(transcript.messages)} messages, ${integer(transcript.tokens)} tokens; probes: ${probeCounts || 'none'}` +
      (transcript.absentProbes > 0
        ? ` (${transcript.absentProbes} expected-action values never appear in it and are not counted)`
        : '') +
      '.',
    '',
    table(
      [
        'window',
        'policy',
        'calls over limit',
        'compactions',
        'retention',
        'recoverable',
        'lost',
        'final tokens (compression)',
        'peak',
        'input ×none',
        'billed ×none',
        'cost',
      ],
      body,
    ),
    '',
  ];
}

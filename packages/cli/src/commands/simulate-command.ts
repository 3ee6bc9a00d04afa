import { createFastEstimator, createTokenCounter, resolveCompactionConfig } from '@compaction/core';
import { readConversation } from '@compaction/formats';
import {
  contextWindowOf,
  createInstalledStrategyRegistry,
  formatChange,
  formatCount,
  formatDollars,
  formatDuration,
  formatTable,
  providerOf,
  replayTriggerPolicies,
  resolveSettings,
  usageError,
} from '@compaction/server';
import {
  createMeteredProvider,
  type PriceModel,
  plotSimulation,
  type SimulationResult,
  simulate,
} from '@compaction/simulation';
import type { CliIO } from '../cli-io.js';
import { parseFormatName } from '../format-flags.js';
import { simulateHelp } from '../help.js';
import { jsonDocumentVersion } from '../output/json-document-version.js';
import { createProgressBar } from '../output/progress-bar.js';
import { writeOutput } from '../output/write-output.js';
import {
  compactionFlagOptions,
  formatFlagOptions,
  helpFlagOptions,
  parseFlags,
  printedHelp,
  valueFlags,
} from '../parse-flags.js';
import { singleInput } from '../single-input.js';

/** `compaction simulate <input>`: replays a conversation as an agent loop and reports sizes and costs. */
export async function simulateCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags('simulate', args, {
    ...helpFlagOptions,
    ...compactionFlagOptions,
    ...formatFlagOptions,
    ...valueFlags('input-price', 'output-price', 'cache-read-price', 'cache-write-price', 'plot'),
    'no-cache': { type: 'boolean' },
    json: { type: 'boolean' },
    steps: { type: 'boolean' },
  });
  if (printedHelp(values, simulateHelp, io)) return 0;
  const prices: Partial<PriceModel> = { ...(values['no-cache'] ? { caching: false } : {}) };
  const price = (flag: string, key: keyof Omit<PriceModel, 'caching'>) => {
    const text = (values as Record<string, unknown>)[flag] as string | undefined;
    if (text === undefined) return;
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0)
      throw usageError(`--${flag} must be dollars per million tokens, got "${text}"`);
    prices[key] = value;
  };
  price('input-price', 'inputPerMillion');
  price('output-price', 'outputPerMillion');
  price('cache-read-price', 'cacheReadPerMillion');
  price('cache-write-price', 'cacheWritePerMillion');

  const registry = await createInstalledStrategyRegistry({ directory: io.cwd, config: values.config });
  const settings = resolveSettings(registry, values, io.cwd);
  const conversation = await readConversation(
    singleInput('simulate', positionals),
    io.stdin,
    parseFormatName(values.from, '--from'),
  );
  const estimator = createFastEstimator();
  const provider = await providerOf(settings, io.env);
  const metered =
    provider === undefined ? undefined : createMeteredProvider(provider, createTokenCounter(estimator));
  // A trigger policy runs on the replay's clock, which the replay hands over when it starts.
  let replayClock: () => number = () => 0;
  const resolved = await resolveCompactionConfig(settings.config, registry, {
    ...(metered === undefined ? {} : { provider: metered }),
    triggerPolicies: replayTriggerPolicies(() => replayClock()),
  });
  const { triggerPolicy } = resolved;
  const progress = createProgressBar(io.stderr, 'simulating', { minimumTotal: 200 });
  const result = await simulate(conversation.messages, {
    strategy: resolved.strategy,
    ...(resolved.fallback === undefined ? {} : { fallback: resolved.fallback }),
    budget: { ...settings.budget, contextWindow: contextWindowOf(settings, provider) },
    estimator,
    prices,
    ...(resolved.planTools === undefined ? {} : { planTools: resolved.planTools }),
    ...(metered === undefined ? {} : { provider: metered }),
    ...(triggerPolicy === undefined
      ? {}
      : {
          triggerPolicy: (now: () => number) => {
            replayClock = now;
            return triggerPolicy;
          },
        }),
    onProgress: (done, total) => progress.update(done, total),
  });
  progress.finish();
  if (values.plot !== undefined) {
    await writeOutput(
      io,
      values.plot,
      plotSimulation(result, `Context size per step: ${settings.strategyNames.join(' → ')}`),
    );
  }
  if (values.json) {
    io.stdout.write(
      `${JSON.stringify({
        version: jsonDocumentVersion,
        format: conversation.format,
        strategy: settings.strategyNames,
        messages: conversation.messages.length,
        limit: result.limit,
        trigger: result.trigger,
        target: result.target,
        prices: result.prices,
        totals: result.totals,
        baseline: result.baseline,
        steps: result.steps,
        plot: values.plot ?? null,
      })}\n`,
    );
    return 0;
  }
  io.stdout.write(report(result, settings.strategyNames, values.steps === true, values.plot));
  return 0;
}

function report(
  result: SimulationResult,
  strategy: string[],
  allSteps: boolean,
  plot: string | undefined,
): string {
  const { totals, baseline } = result;
  const lines = [
    `Replayed ${formatCount(result.steps.length)} model calls with ${strategy.join(' → ')}`,
    `  limit ${formatCount(result.limit)} tokens, trigger ${result.trigger === null ? 'off' : formatCount(result.trigger)}, target ${formatCount(result.target)}`,
    '',
  ];
  const shown = result.steps.filter((step) => allSteps || step.compaction !== undefined || step.overLimit);
  if (shown.length > 0) {
    const rows = [['step', 'message', 'context', 'messages', 'compaction']];
    for (const step of shown) {
      rows.push([
        String(step.step),
        `#${step.messageIndex}`,
        formatCount(step.contextTokens),
        formatCount(step.contextMessages),
        step.compaction === undefined
          ? step.overLimit
            ? 'over the limit'
            : ''
          : `${step.compaction.strategy} ${formatCount(step.compaction.tokensBefore)} → ${formatCount(step.compaction.tokensAfter)}`,
      ]);
    }
    lines.push(formatTable(rows), '');
  }
  const rows = [
    ['', 'with compaction', 'without', 'change'],
    row('input tokens sent', totals.inputTokens, baseline.inputTokens),
    row('  cache reads', totals.cacheReadTokens, baseline.cacheReadTokens),
    row('  cache writes', totals.cacheWriteTokens, baseline.cacheWriteTokens),
    row('  uncached input', totals.uncachedInputTokens, baseline.uncachedInputTokens),
    row('output tokens', totals.outputTokens, baseline.outputTokens),
    row('peak context', totals.peakContextTokens, baseline.peakContextTokens),
    ['calls over the limit', String(totals.overLimitSteps), String(baseline.overLimitSteps), ''],
    [
      'cost',
      formatDollars(totals.cost),
      formatDollars(baseline.cost),
      formatChange(baseline.cost, totals.cost),
    ],
  ];
  lines.push(formatTable(rows), '');
  lines.push(
    `  ${totals.compactions} ${totals.compactions === 1 ? 'compaction' : 'compactions'}, costing ${formatDollars(totals.compactionCost)} ` +
      `(${formatCount(totals.compactionInputTokens)} input + ${formatCount(totals.compactionOutputTokens)} output tokens) ` +
      `and ${formatDuration(totals.compactionDurationMs)}`,
  );
  const { prices } = result;
  lines.push(
    `  prices per million tokens: input $${prices.inputPerMillion}, output $${prices.outputPerMillion}` +
      (prices.caching
        ? `, cache read $${prices.cacheReadPerMillion}, cache write $${prices.cacheWritePerMillion}`
        : ', no caching'),
  );
  if (plot !== undefined) lines.push(`  plot written to ${plot}`);
  return `${lines.join('\n')}\n`;
}

function row(label: string, withCompaction: number, without: number): string[] {
  return [label, formatCount(withCompaction), formatCount(without), formatChange(without, withCompaction)];
}

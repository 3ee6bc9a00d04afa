/** The strategy figures of bench/README.md, written from the saved results of `pnpm bench:strategies`. */
import {
  compactorPath,
  maskName,
  pruneMessagesName,
  strategyNames,
  trimMessagesName,
  trimmingStrategies,
} from './contender-names.js';
import { measured, ratio, thousands } from './format.js';
import type { StrategyResults } from './results.js';
import type { Measurement } from './timing.js';

export const strategySectionName = 'strategy-figures';

export function strategyReadmeFigures(results: StrategyResults): string {
  const lines = [
    `Median ms, target half of each history, Node ${results.node}, ${results.cores} cores, load average ` +
      `${results.loadAverage.toFixed(1)} at the start, ${results.date}. ` +
      'Compactor: the same strategy through `Compactor.compact`.',
    '',
    '| history | strategy | warm | Compactor warm | Compactor ÷ strategy | cold | Compactor cold | ' +
      'trimMessages warm | trimMessages ÷ ours |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|',
  ];
  const speedUps: number[] = [];
  for (const history of results.sizes) {
    const label = `${compactTokens(history.tokens)} tokens`;
    const trim = history.half[trimMessagesName];
    for (const name of strategyNames) {
      const ours = history.half[name];
      const compactor = history.half[compactorPath(name)];
      const peered = trimmingStrategies.includes(name);
      const speedUp = peered ? quotient(trim?.warm, ours?.warm) : undefined;
      if (speedUp !== undefined) speedUps.push(speedUp);
      lines.push(
        `| ${label} | ${name} | ${measured(ours?.warm)} | ${measured(compactor?.warm)} | ` +
          `${ratio(compactor?.warm, ours?.warm)} | ${measured(ours?.cold)} | ${measured(compactor?.cold)} | ` +
          `${peered ? measured(trim?.warm) : ''} | ${peered ? ratio(trim?.warm, ours?.warm) : ''} |`,
      );
    }
  }
  lines.push('');
  if (speedUps.length > 0) {
    lines.push(
      `Warm, pruning and sliding-window are **${Math.min(...speedUps).toFixed(0)} to ` +
        `${Math.max(...speedUps).toFixed(0)} times faster** than \`trimMessages\` doing the same job, every ` +
        'output checked at or under the target.',
    );
  }
  lines.push(
    '',
    'Masking every old tool result against `pruneMessages` (warm ms; target: the history with every old result masked):',
    '',
    '| history | mask | pruneMessages | mask ÷ pruneMessages |',
    '|---|--:|--:|--:|',
  );
  for (const history of results.sizes) {
    const mask = history.allOld[maskName];
    const prune = history.allOld[pruneMessagesName];
    lines.push(
      `| ${compactTokens(history.tokens)} tokens | ${measured(mask?.warm)} | ${measured(prune?.warm)} | ` +
        `${ratio(mask?.warm, prune?.warm)} |`,
    );
  }
  const outOfReach = results.sizes.flatMap((history) =>
    Object.entries(history.outOfReach).map(
      ([name, why]) => `${name} at ${compactTokens(history.tokens)} tokens (${why})`,
    ),
  );
  if (outOfReach.length > 0) {
    lines.push('', `Out of reach at half of the history, so not posed: ${outOfReach.join('; ')}.`);
  }
  if (results.failures.length > 0) {
    lines.push(
      '',
      '**Refused outputs** (their times do not count):',
      '',
      ...results.failures.map((line) => `- ${line}`),
    );
  }
  return lines.join('\n');
}

/** `4.06M`, `99.7k`: the size of a history at a glance; the report has the exact count. */
function compactTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${(tokens / 1_000_000).toFixed(2)}M`;
  if (tokens >= 1000) return `${(tokens / 1000).toFixed(1)}k`;
  return thousands(tokens);
}

function quotient(
  numerator: Measurement | undefined,
  denominator: Measurement | undefined,
): number | undefined {
  if (numerator === undefined || denominator === undefined) return undefined;
  if (!('milliseconds' in numerator) || !('milliseconds' in denominator)) return undefined;
  return numerator.milliseconds / denominator.milliseconds;
}

import { createFastEstimator, type Message, type Provider } from '@compaction/core';
import { readConversation } from '@compaction/formats';
import {
  CliError,
  createProvider,
  formatChange,
  formatCount,
  formatTable,
  resolveProviderFlags,
} from '@compaction/server';
import type { CliIO } from '../cli-io.js';
import { countTokens, scaleBreakdown, type TokenBreakdown } from '../count-tokens.js';
import { type EstimatorName, estimatorByName, estimatorNames, parseEstimatorName } from '../estimators.js';
import { parseFormatName } from '../format-flags.js';
import { countHelp } from '../help.js';
import { jsonDocumentVersion } from '../output/json-document-version.js';
import { formatFlagOptions, helpFlagOptions, parseFlags, printedHelp } from '../parse-flags.js';
import { singleInput } from '../single-input.js';

/** `compaction count <input>`: tokens by role, part kind and tool, with one estimator or several. */
export async function countCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags('count', args, {
    ...helpFlagOptions,
    ...formatFlagOptions,
    estimator: { type: 'string', short: 'e' },
    compare: { type: 'boolean' },
    json: { type: 'boolean' },
    config: { type: 'string', short: 'c' },
    provider: { type: 'string' },
    model: { type: 'string' },
    'base-url': { type: 'string' },
  });
  if (printedHelp(values, countHelp, io)) return 0;
  const estimator = parseEstimatorName(values.estimator ?? 'fast');
  const conversation = await readConversation(
    singleInput('count', positionals),
    io.stdin,
    parseFormatName(values.from, '--from'),
  );
  const providerSettings = resolveProviderFlags(values, io.cwd);
  let provider: Provider | undefined;
  const needsProvider = estimator === 'provider' || (values.compare && providerSettings !== undefined);
  if (needsProvider) {
    if (providerSettings === undefined) {
      throw new CliError({
        reason: 'usage',
        message:
          '--estimator provider needs a provider: add --provider anthropic (with ANTHROPIC_API_KEY set)',
      });
    }
    provider = await createProvider(providerSettings, io.env);
  }

  const names: EstimatorName[] = values.compare ? [...estimatorNames] : [estimator];
  const results: Array<{ estimator: EstimatorName; source: string } & TokenBreakdown> = [];
  const unavailable: Array<{ estimator: EstimatorName; reason: string }> = [];
  for (const name of names) {
    try {
      results.push(await count(name, conversation.messages, provider, providerSettings?.model));
    } catch (error) {
      if (!values.compare) throw error;
      unavailable.push({ estimator: name, reason: (error as Error).message });
    }
  }
  const primary = results.find((result) => result.estimator === estimator) ?? results[0]!;
  if (values.json) {
    const base = results[0]!;
    io.stdout.write(
      `${JSON.stringify({
        version: jsonDocumentVersion,
        format: conversation.format,
        ...primary,
        ...(values.compare
          ? {
              compare: results.map((result) => ({
                estimator: result.estimator,
                source: result.source,
                tokens: result.tokens,
                difference: result.tokens - base.tokens,
                byRole: result.byRole,
              })),
              unavailable,
            }
          : {}),
      })}\n`,
    );
    return 0;
  }
  io.stdout.write(values.compare ? compareReport(results, unavailable) : breakdownReport(primary));
  return 0;
}

async function count(
  name: EstimatorName,
  messages: Message[],
  provider: Provider | undefined,
  model: string | undefined,
): Promise<{ estimator: EstimatorName; source: string } & TokenBreakdown> {
  if (name !== 'provider') {
    const estimator = await estimatorByName(name);
    return { estimator: name, source: estimator.name, ...countTokens(messages, estimator) };
  }
  if (provider === undefined) {
    throw new CliError({ reason: 'usage', message: 'needs --provider and its API key' });
  }
  if (provider.countTokens === undefined) {
    throw new CliError({ reason: 'config', message: `the ${provider.name} provider cannot count tokens` });
  }
  const exact = await provider.countTokens({ messages, ...(model === undefined ? {} : { modelId: model }) });
  // The provider counts whole requests; the breakdown keeps the fast estimator's proportions.
  return {
    estimator: 'provider',
    source: exact.source,
    ...scaleBreakdown(countTokens(messages, createFastEstimator()), exact.tokens),
  };
}

function breakdownReport(result: { estimator: string; source: string } & TokenBreakdown): string {
  const share = (value: number) =>
    result.tokens === 0 ? '0%' : `${((value / result.tokens) * 100).toFixed(1)}%`;
  const section = (title: string, record: Record<string, number>) => {
    const rows = Object.entries(record)
      .sort((left, right) => right[1] - left[1])
      .map(([key, value]) => [key, formatCount(value), share(value)]);
    return `${title}\n${formatTable(rows)}`;
  };
  const tools = Object.entries(result.byTool)
    .sort((left, right) => right[1].tokens - left[1].tokens)
    .map(([name, tool]) => [
      name,
      formatCount(tool.tokens),
      share(tool.tokens),
      `${tool.calls} calls`,
      `${tool.results} results`,
    ]);
  const lines = [
    `${formatCount(result.tokens)} tokens in ${formatCount(result.messages)} messages (${result.source})`,
    '',
    section('By role', result.byRole),
    '',
    section('By part kind', result.byPartKind),
  ];
  if (tools.length > 0) lines.push('', `By tool\n${formatTable(tools)}`);
  return `${lines.join('\n')}\n`;
}

function compareReport(
  results: Array<{ estimator: string; source: string } & TokenBreakdown>,
  unavailable: Array<{ estimator: string; reason: string }>,
): string {
  const base = results[0]!;
  const roles = [...new Set(results.flatMap((result) => Object.keys(result.byRole)))];
  const header = ['estimator', 'source', 'tokens', 'difference', ...roles];
  const rows = results.map((result) => [
    result.estimator,
    result.source,
    formatCount(result.tokens),
    result === base
      ? ''
      : `${formatCount(result.tokens - base.tokens)} (${formatChange(base.tokens, result.tokens)})`,
    ...roles.map((role) => formatCount(result.byRole[role] ?? 0)),
  ]);
  const lines = [formatTable([header, ...rows])];
  for (const missing of unavailable) lines.push(`  ${missing.estimator}: not available (${missing.reason})`);
  return `${lines.join('\n')}\n`;
}

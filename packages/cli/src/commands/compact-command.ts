import type { CliIO } from '../cli-io.js';
import { createCliRegistry } from '../config/installed-strategies.js';
import { resolveSettings } from '../config/resolve-settings.js';
import { parseFormatName } from '../formats/format-flags.js';
import { formats } from '../formats/formats.js';
import { readConversation } from '../formats/read-conversation.js';
import { compactHelp } from '../help.js';
import { formatChange, formatCount, formatDuration, formatTable } from '../output/format-numbers.js';
import { writeOutput } from '../output/write-output.js';
import { compactionFlagOptions, formatFlagOptions, helpFlagOptions, parseFlags } from '../parse-flags.js';
import { type CompactionReport, compactMessages } from '../run-compaction.js';

/** `compaction compact <input>`: compacts a conversation once and writes it back in its format. */
export async function compactCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags('compact', args, {
    ...helpFlagOptions,
    ...compactionFlagOptions,
    ...formatFlagOptions,
    output: { type: 'string', short: 'o' },
    json: { type: 'boolean' },
    instructions: { type: 'string' },
  });
  if (values.help) {
    io.stdout.write(compactHelp);
    return 0;
  }
  const from = parseFormatName(values.from, '--from');
  const to = parseFormatName(values.to, '--to');
  const registry = await createCliRegistry();
  const settings = resolveSettings(registry, values, io.cwd);
  const conversation = await readConversation(positionals[0], from);
  const report = await compactMessages(conversation.messages, {
    settings,
    registry,
    targetOfInput: true,
    environment: io.env,
    ...(values.instructions === undefined ? {} : { instructions: values.instructions }),
  });
  const format = to ?? conversation.format;
  // A different output format gets none of the input's request fields: they belong to the input's API.
  const envelope = format === conversation.format ? conversation.envelope : undefined;
  const text = await formats[format].write(report.messages, envelope);
  if (values.json) {
    if (values.output !== undefined) await writeOutput(io, values.output, text);
    const summary = {
      format: conversation.format,
      outputFormat: format,
      strategy: report.strategy,
      compacted: report.compacted,
      ...(report.skipped === undefined ? {} : { skipped: report.skipped }),
      before: report.before,
      after: report.after,
      target: report.target,
      limit: report.limit,
      stages: report.stages,
      usedFallback: report.usedFallback,
      ...(report.failures.length === 0 ? {} : { failures: report.failures }),
      durationMs: Math.round(report.durationMs * 100) / 100,
      output: values.output ?? null,
      ...(settings.configPath === undefined ? {} : { config: settings.configPath }),
    };
    io.stdout.write(`${JSON.stringify(summary)}\n`);
    return 0;
  }
  await writeOutput(io, values.output, text);
  io.stderr.write(humanReport(report, conversation.format, positionals[0] ?? 'standard input'));
  return 0;
}

function humanReport(report: CompactionReport, format: string, source: string): string {
  const { before, after } = report;
  const head = report.compacted
    ? `Compacted ${source} (${format}) with ${report.strategy.join(' → ')}`
    : `Nothing compacted in ${source} (${format}): ${skipText(report.skipped)}`;
  const rows = [
    ['before', `${formatCount(before.messages)} messages`, `${formatCount(before.tokens)} tokens`],
    [
      'after',
      `${formatCount(after.messages)} messages`,
      `${formatCount(after.tokens)} tokens`,
      formatChange(before.tokens, after.tokens),
    ],
    ['target', '', `${formatCount(report.target)} tokens`],
  ];
  const stages = report.stages.map((stage, index) => [
    index === 0 ? 'stages' : '',
    stage.name,
    `${formatCount(stage.tokensBefore)} → ${formatCount(stage.tokensAfter)} tokens`,
  ]);
  const lines = [head, formatTable(rows)];
  if (stages.length > 0) lines.push(formatTable(stages));
  if (report.usedFallback) lines.push(`  used the fallback after ${report.failures.join('; ')}`);
  lines.push(`  took ${formatDuration(report.durationMs)}`);
  return `${lines.join('\n')}\n`;
}

function skipText(reason: string | undefined): string {
  switch (reason) {
    case 'under-target':
      return 'it is already under the target';
    case 'cancelled':
      return 'a hook cancelled it';
    default:
      return reason ?? 'no reason given';
  }
}

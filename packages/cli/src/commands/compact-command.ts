import {
  decodeText,
  formats,
  parseConversation,
  readInputBytes,
  withStoredContext,
} from '@compaction/formats';
import {
  type CompactionReport,
  compactMessages,
  createInstalledStrategyRegistry,
  type FileIdentity,
  fileIdentity,
  formatChange,
  formatCount,
  formatDuration,
  formatTable,
  resolveSettings,
  summarizeCompaction,
  usageError,
} from '@compaction/server';
import {
  type ArchiveStore,
  defaultSessionId,
  openArchiveStore,
  recallCommandLine,
} from '../archive/archive-store.js';
import type { CliIO } from '../cli-io.js';
import { parseFormatName } from '../format-flags.js';
import { compactHelp } from '../help.js';
import { jsonDocumentVersion } from '../output/json-document-version.js';
import { resolveOutputPath } from '../output/output-path.js';
import { writeOutput } from '../output/write-output.js';
import {
  compactionFlagOptions,
  formatFlagOptions,
  helpFlagOptions,
  parseFlags,
  printedHelp,
} from '../parse-flags.js';
import { singleInput } from '../single-input.js';

/** `compaction compact <input>`: compacts a conversation once and writes it back in its format. */
export async function compactCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags('compact', args, {
    ...helpFlagOptions,
    ...compactionFlagOptions,
    ...formatFlagOptions,
    output: { type: 'string', short: 'o' },
    'in-place': { type: 'boolean' },
    json: { type: 'boolean' },
    instructions: { type: 'string' },
    force: { type: 'boolean' },
    store: { type: 'string' },
    session: { type: 'string' },
  });
  if (printedHelp(values, compactHelp, io)) return 0;
  if (values.session !== undefined && values.store === undefined) {
    throw usageError('compact: --session names where --store records; give --store too');
  }
  const from = parseFormatName(values.from, '--from');
  const to = parseFormatName(values.to, '--to');
  const inputPath = singleInput('compact', positionals);
  // Checked before any work, so a refused output costs nothing and touches nothing.
  const outputPath = await resolveOutputPath({
    input: inputPath,
    output: values.output,
    inPlace: values['in-place'] === true,
  });
  const registry = await createInstalledStrategyRegistry({ directory: io.cwd, config: values.config });
  const settings = resolveSettings(registry, values, io.cwd);
  // Taken before the read, so a change made while reading counts too: --in-place writes only over the state it
  // read, and a concurrent run or an editor's save in between makes it fail instead of overwrite.
  const readState: FileIdentity | undefined =
    values['in-place'] === true && inputPath !== undefined
      ? // A missing or unreadable input: the read below says why.
        await fileIdentity(inputPath).catch(() => undefined)
      : undefined;
  const writeOptions = readState === undefined ? {} : { unchanged: readState };
  const input = await readInputBytes(inputPath, io.stdin);
  const conversation = await parseConversation(decodeText(input.bytes, input.source), input.source, from);
  const sessionId = values.session ?? defaultSessionId;
  // Opened once the input is known to be a conversation, so a bad input creates no store file.
  const archive =
    values.store === undefined
      ? undefined
      : await openArchiveStore('compact', values.store, io.cwd, { mustExist: false });
  let report: CompactionReport;
  try {
    report = await compactMessages(conversation.messages, {
      settings,
      registry,
      targetOfInput: true,
      skipNothingToCompact: true,
      environment: io.env,
      ...(values.instructions === undefined ? {} : { instructions: values.instructions }),
      // Even under the target: core aims for half of the messages, as far as what it keeps allows.
      ...(values.force === true ? { force: true } : {}),
      ...(archive === undefined ? {} : { store: archive.store, sessionId }),
      ...withStoredContext(conversation),
      ...(conversation.envelope === undefined ? {} : { envelope: conversation.envelope }),
    });
  } finally {
    await archive?.store.close();
  }
  const format = to ?? conversation.format;
  // Nothing compacted, same format: the input as it was, byte for byte (providers cache on the exact prefix).
  const unchanged = !report.compacted && format === conversation.format;
  let output: string | Uint8Array = input.bytes;
  if (!unchanged) {
    // A different output format gets none of the input's request fields: they belong to the input's API.
    output = await formats[format].write(
      report.messages,
      format === conversation.format ? conversation : undefined,
    );
  }
  // With --in-place and nothing to change, the input file is left alone.
  const writes = !(unchanged && values['in-place']);
  for (const warning of warnings(report)) io.stderr.write(`compaction: warning: ${warning}\n`);
  if (values.json) {
    if (outputPath !== undefined && writes) await writeOutput(io, outputPath, output, writeOptions);
    const summary = {
      version: jsonDocumentVersion,
      ...summarizeCompaction(report, conversation.format, format),
      output: outputPath ?? null,
      ...(settings.configPath === undefined ? {} : { config: settings.configPath }),
      ...(archive === undefined ? {} : { store: archive.name, session: sessionId }),
    };
    io.stdout.write(`${JSON.stringify(summary)}\n`);
    return 0;
  }
  if (writes) await writeOutput(io, outputPath, output, writeOptions);
  io.stderr.write(humanReport(report, conversation.format, input.source, unchanged));
  if (archive !== undefined) io.stderr.write(archiveReport(report, archive, sessionId));
  return 0;
}

/** What was archived and where, and the command that gets it back. */
function archiveReport(report: CompactionReport, archive: ArchiveStore, sessionId: string): string {
  if (!report.compacted) return '';
  const count = report.archived?.length ?? 0;
  const where = `in ${archive.name}, session "${sessionId}"`;
  if (count === 0) return `  archived nothing ${where}: no strategy removed text it could archive\n`;
  const items = count === 1 ? '1 item' : `${formatCount(count)} items`;
  return (
    `  archived ${items} ${where}, each named in the output as recall "<handle>"\n` +
    `  recall one with: ${recallCommandLine(archive.name, sessionId)}\n`
  );
}

/** What the user must not miss: a fallback produced the result, or the target was not reached. */
function warnings(report: CompactionReport): string[] {
  const lines: string[] = [];
  if (report.usedFallback) {
    const what =
      report.fallback === 'extractive-digest'
        ? 'an extractive digest (not a summary) took the place of the summarized messages'
        : `the fallback ${report.fallback} produced the result`;
    lines.push(`${report.failures.join('; ')}; ${what}`);
  }
  if (report.compacted && !report.targetReached) {
    lines.push(
      `the target of ${formatCount(report.target)} tokens was not reached: the result has ` +
        `${formatCount(report.after.tokens)} tokens (within the limit of ${formatCount(report.limit)})`,
    );
  }
  return lines;
}

function humanReport(report: CompactionReport, format: string, source: string, unchanged: boolean): string {
  const { before, after } = report;
  const head = report.compacted
    ? `Compacted ${source} (${format}) with ${producedBy(report)}`
    : `Nothing compacted in ${source} (${format}): ${skipText(report)}` +
      (unchanged ? '; the output is the input unchanged' : '');
  const messages = (count: number) => `${formatCount(count)} ${count === 1 ? 'message' : 'messages'}`;
  // With nothing to compact, the default target was never the user's to reach: the headline says why.
  const missed = !report.targetReached && report.skipped !== 'nothing-to-compact';
  const rows = [
    ['before', messages(before.messages), `${formatCount(before.tokens)} tokens`],
    [
      'after',
      messages(after.messages),
      `${formatCount(after.tokens)} tokens`,
      formatChange(before.tokens, after.tokens),
    ],
    ['target', '', `${formatCount(report.target)} tokens`, missed ? 'not reached' : ''],
  ];
  const stages = report.stages.map((stage, index) => [
    index === 0 ? 'stages' : '',
    stage.fallback === undefined ? stage.name : `${stage.name} (${stage.fallback})`,
    `${formatCount(stage.tokensBefore)} → ${formatCount(stage.tokensAfter)} tokens`,
  ]);
  const lines = [head, formatTable(rows)];
  if (stages.length > 0) lines.push(formatTable(stages));
  lines.push(`  took ${formatDuration(report.durationMs)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * What made the result, as the headline says it: the configured strategies, unless a fallback made it; a
 * stage that fell back to an extractive digest is named as such, never as a summary.
 */
function producedBy(report: CompactionReport): string {
  if (report.fallback !== undefined && report.fallback !== 'extractive-digest') {
    return `the fallback ${report.fallback} (${report.strategy.join(' → ')} failed)`;
  }
  return report.strategy
    .map((name) => {
      const stage = report.stages.find((candidate) => candidate.name === name);
      return stage?.fallback === 'extractive-digest' ? `an extractive digest (${name} failed)` : name;
    })
    .join(' → ');
}

function skipText(report: CompactionReport): string {
  const reason = report.skipped;
  switch (reason) {
    case 'nothing-to-compact':
      return (
        `there is nothing to compact: ${report.strategy.join(' → ')} found nothing to remove, and it fits ` +
        `the limit of ${formatCount(report.limit)} tokens`
      );
    case 'under-target':
      return 'it is already under the target';
    case 'cancelled':
      return 'a hook cancelled it';
    case 'stored-context':
      return (
        'it continues context the API stores (previous_response_id or conversation): the model also sees ' +
        'the stored history, which is not here, and every new item must reach it'
      );
    default:
      return reason ?? 'no reason given';
  }
}

import type { FormatName } from '@compaction/formats';
import type { StageReport } from '../compaction-stages.js';
import type { CompactionReport } from '../run-compaction.js';

/**
 * What one compaction did, as `compaction compact --json` prints it and `compaction serve` answers it: the
 * formats read and written, the strategies, the counts before and after, the target and limit, each stage,
 * and whether a fallback made the result.
 */
export interface CompactionSummary {
  format: FormatName;
  outputFormat: FormatName;
  strategy: string[];
  compacted: boolean;
  skipped?: string;
  before: { messages: number; tokens: number };
  after: { messages: number; tokens: number };
  target: number;
  targetReached: boolean;
  limit: number;
  stages: StageReport[];
  usedFallback: boolean;
  fallback?: string;
  failures?: string[];
  durationMs: number;
  /**
   * With a store: each item the compaction archived for recall, by the handle the output names, with what it
   * held and its size.
   */
  archived?: ArchivedItemSummary[];
}

/** One archived item as reports list it: its text is in the store, not in the report. */
export interface ArchivedItemSummary {
  handle: string;
  label: string;
  characters: number;
}

/** The summary of a compaction report, for machines; the duration is rounded to hundredths of a ms. */
export function summarizeCompaction(
  report: CompactionReport,
  format: FormatName,
  outputFormat: FormatName = format,
): CompactionSummary {
  return {
    format,
    outputFormat,
    strategy: report.strategy,
    compacted: report.compacted,
    ...(report.skipped === undefined ? {} : { skipped: report.skipped }),
    before: report.before,
    after: report.after,
    target: report.target,
    targetReached: report.targetReached,
    limit: report.limit,
    stages: report.stages,
    usedFallback: report.usedFallback,
    ...(report.fallback === undefined ? {} : { fallback: report.fallback }),
    ...(report.failures.length === 0 ? {} : { failures: report.failures }),
    durationMs: Math.round(report.durationMs * 100) / 100,
    ...(report.archived === undefined
      ? {}
      : {
          archived: report.archived.map(({ handle, label, text }) => ({
            handle,
            label,
            characters: text.length,
          })),
        }),
  };
}

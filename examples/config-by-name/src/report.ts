import type { CompactionEvent, JSONValue } from '@compaction/core';

/** One stage of a pipeline, as the pipeline records it in `event.details.stages`. */
interface StageDetails {
  name: string;
  tokensBefore: number;
  tokensAfter: number;
  messagesBefore: number;
  messagesAfter: number;
}

const number = (value: number) => value.toLocaleString('en-US');

function isStage(value: JSONValue): value is JSONValue & StageDetails {
  const stage = value as Partial<StageDetails> | null;
  return typeof stage === 'object' && stage !== null && typeof stage.name === 'string';
}

/** The stages a pipeline ran (none for a single strategy). */
export function stagesOf(event: CompactionEvent): StageDetails[] {
  const stages = event.details?.stages;
  return Array.isArray(stages) ? stages.filter(isStage) : [];
}

/** A plain-text before/after report of one compaction, with a line per pipeline stage. */
export function formatReport(event: CompactionEvent): string {
  const stages = stagesOf(event);
  const width = Math.max(...stages.map((stage) => stage.name.length), 0);
  const change = Math.round(
    (100 * (event.tokensAfter - event.tokensBefore)) / Math.max(event.tokensBefore, 1),
  );
  return [
    `Compacted with "${event.strategy}" (trigger: ${event.trigger}) in ${event.durationMs.toFixed(1)} ms`,
    `  before  ${String(event.messagesBefore).padStart(4)} messages  ${number(event.tokensBefore).padStart(7)} tokens`,
    `  after   ${String(event.messagesAfter).padStart(4)} messages  ${number(event.tokensAfter).padStart(7)} tokens  ${change}%`,
    ...stages.map(
      (stage, index) =>
        `  ${index === 0 ? 'stages' : '      '}  ${stage.name.padEnd(width)}  ` +
        `${number(stage.tokensBefore).padStart(7)} → ${number(stage.tokensAfter).padStart(7)} tokens, ` +
        `${stage.messagesBefore} → ${stage.messagesAfter} messages`,
    ),
  ].join('\n');
}

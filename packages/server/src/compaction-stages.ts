import type { CompactionEvent, JSONObject, JSONValue } from '@compaction/core';

/** One stage of a compaction, for reports. */
export interface StageReport {
  name: string;
  tokensBefore: number;
  tokensAfter: number;
  messagesBefore: number;
  messagesAfter: number;
  /**
   * Set when the stage produced its result with its own fallback: `extractive-digest` when summarization's
   * summarizer failed and an extractive digest took the summary's place.
   */
  fallback?: string;
  /** Why the stage fell back, in its own words. */
  failure?: string;
}

/** The stages a compaction event ran: a pipeline's own list, or the one strategy. */
export function stagesOf(event: CompactionEvent): StageReport[] {
  const stages = (event.details as { stages?: JSONObject[] } | undefined)?.stages;
  if (event.strategy === 'pipeline' && Array.isArray(stages)) {
    return stages.map((stage) => ({
      name: String(stage.name),
      tokensBefore: Number(stage.tokensBefore),
      tokensAfter: Number(stage.tokensAfter),
      messagesBefore: Number(stage.messagesBefore),
      messagesAfter: Number(stage.messagesAfter),
      ...fallbackOf(stage.details),
    }));
  }
  return [
    {
      name: event.strategy,
      tokensBefore: event.tokensBefore,
      tokensAfter: event.tokensAfter,
      messagesBefore: event.messagesBefore,
      messagesAfter: event.messagesAfter,
      ...fallbackOf(event.details),
    },
  ];
}

/** A strategy's own fallback, from its details (summarization records `fallback: 'extractive'`). */
function fallbackOf(details: JSONValue | undefined): Pick<StageReport, 'fallback' | 'failure'> {
  if (typeof details !== 'object' || details === null || Array.isArray(details)) return {};
  if (details.fallback !== 'extractive') return {};
  const failure = typeof details.failure === 'string' ? details.failure : undefined;
  const reason = typeof details.reason === 'string' ? details.reason : undefined;
  return {
    fallback: 'extractive-digest',
    ...(failure === undefined && reason === undefined ? {} : { failure: failure ?? reason }),
  };
}

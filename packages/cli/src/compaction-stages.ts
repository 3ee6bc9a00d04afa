import type { CompactionEvent, JSONObject } from '@compaction/core';

/** One stage of a compaction, for reports. */
export interface StageReport {
  name: string;
  tokensBefore: number;
  tokensAfter: number;
  messagesBefore: number;
  messagesAfter: number;
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
    }));
  }
  return [
    {
      name: event.strategy,
      tokensBefore: event.tokensBefore,
      tokensAfter: event.tokensAfter,
      messagesBefore: event.messagesBefore,
      messagesAfter: event.messagesAfter,
    },
  ];
}
